import pino from 'pino';
import { createStatementStore } from '../../src/relay/statement-store';

const quiet = pino({ level: 'silent' });

describe('statements kept in memory', () => {
  it('gives a statement until its TTL, then no more', () => {
    let now = 0;
    const store = createStatementStore(1_000, 10, quiet, undefined, () => now);
    store.put('a', { owner: 'key:1', jws: 'h.n1.s' });
    now = 999;
    expect(store.get('a')).toEqual({ owner: 'key:1', jws: 'h.n1.s' });
    now = 1_000;
    expect(store.get('a')).toBeUndefined();
    store.stop();
  });

  it('keeps the newest `kept` under a flood, dropping the oldest first', () => {
    let now = 0;
    const store = createStatementStore(60_000, 1_000, quiet, undefined, () => now);
    for (let i = 0; i < 50_000; i++) {
      now = i;
      store.put(`s${i}`, { owner: 'key:1', jws: `h.i${i}.s` });
    }
    expect(store.get('s48999')).toBeUndefined();
    expect(store.get('s49000')).toEqual({ owner: 'key:1', jws: 'h.i49000.s' });
    expect(store.get('s49999')).toBeDefined();
    store.stop();
  });
});
