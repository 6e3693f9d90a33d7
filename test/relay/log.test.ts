import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { request } from 'undici';
import { startRelay } from '../../src/relay';
import { createRelayLogger } from '../../src/relay/log';
import { AUTH, baseConfig, startFakeUpstream, type FakeUpstream } from './helpers';

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});

afterAll(async () => {
  await upstream.close();
});

/** Resolves once the file holds `text`, woken by the destination's own writes (no polling, no sleeps). */
async function written(
  dest: ReturnType<typeof pino.destination>,
  file: string,
  text: string,
): Promise<string> {
  for (;;) {
    const contents = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (contents.includes(text)) return contents;
    await once(dest, 'write');
  }
}

describe('relay log', () => {
  it("writes a lone request's line without further traffic, though lines are buffered by 4 KiB, and flushes at close", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relay-log-')), 'relay.log');
    // Buffered exactly like the relay's stdout: nothing reaches the file before 4 KiB or a flush.
    const dest = pino.destination({ dest: file, sync: false, minLength: 4096 });
    const relay = await startRelay(baseConfig(upstream), { logDestination: dest });
    try {
      const res = await request(`${relay.url}/api/acc/directdata/v3/risk`, {
        headers: { authorization: AUTH },
      });
      await res.body.text();
      const contents = await written(dest, file, '"msg":"request"');
      expect(contents.length).toBeLessThan(4096);
      const line = contents.split('\n').find((l) => l.includes('"msg":"request"'))!;
      expect(JSON.parse(line)).toMatchObject({ route: 'risk', status: 200 });
    } finally {
      await relay.close(100);
    }
    await written(dest, file, '"msg":"relay stopped"');
    dest.end();
  });

  it('keeps access lines and pino lines in order through its block, in ASCII with non-ASCII escaped, however long a line is', () => {
    const out: string[] = [];
    // A destination that can flush gets access lines in blocks, as stdout's sonic-boom does.
    const relayLog = createRelayLogger('info', {
      write: (s: string) => void out.push(s),
      flush: () => undefined,
    } as never);
    const call = (n: number, extra: { path?: string; upstreamError?: string } = {}) =>
      relayLog.request(
        { reqId: `r${n}`, method: 'GET', path: extra.path ?? `/api/acc/${n}`, status: 200, durationMs: 1 },
        { bytes: 0, ...(extra.upstreamError ? { upstreamError: extra.upstreamError } : {}) },
      );
    call(1, { path: '/api/acc/dir\u00e9ctdata/\u010d\u010a/\u{1F600}' });
    relayLog.logger.warn('between');
    for (let n = 2; n < 600; n++) call(n);
    call(600, { upstreamError: 'x'.repeat(70_000) });
    call(601, { upstreamError: 'said "no" \\ then\n\u0001' });
    relayLog.close();
    // eslint-disable-next-line no-control-regex
    expect(out.join('')).toMatch(/^[\x00-\x7f]*$/);
    const lines = out
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ reqId: 'r1', path: '/api/acc/dir\u00e9ctdata/\u010d\u010a/\u{1F600}' });
    expect(lines[1]).toMatchObject({ msg: 'between' });
    expect(lines.slice(2).map((l) => l.reqId)).toEqual(Array.from({ length: 600 }, (_, i) => `r${i + 2}`));
    expect(lines.find((l) => l.reqId === 'r600')!.upstreamError).toHaveLength(70_000);
    expect(lines.find((l) => l.reqId === 'r601')!.upstreamError).toBe('said "no" \\ then\n\u0001');
  });
});
