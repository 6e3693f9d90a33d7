import { loadOfficeScript, type ScriptHost } from '../../src/taskpane/office/officeScript';

/** A stand-in document: each script either defines Office, fails, or never answers, and a clock we advance. */
function fakeHost(behaviour: Record<string, 'defines-office' | 'empty' | 'fails' | 'hangs'>) {
  let office = false;
  const added: string[] = [];
  const abandoned: string[] = [];
  const timers = new Map<number, () => void>();
  let next = 1;
  const host: ScriptHost = {
    addScript(src, onDone) {
      added.push(src);
      const b = behaviour[src];
      queueMicrotask(() => {
        if (b === 'defines-office') {
          office = true;
          onDone(true);
        } else if (b === 'empty') onDone(true);
        else if (b === 'fails') onDone(false);
      });
      return { abandon: () => abandoned.push(src) };
    },
    hasOffice: () => office,
    setTimeout(fn) {
      timers.set(next, fn);
      return next++;
    },
    clearTimeout: (h) => timers.delete(h as number),
  };
  const fireTimers = () => {
    for (const [h, fn] of [...timers]) {
      timers.delete(h);
      fn();
    }
  };
  return { host, added, abandoned, fireTimers, pendingTimers: () => timers.size };
}

const opts = { cdn: 'cdn/office.js', packaged: 'office-js/office.js', timeoutMs: 5000 };

test('the CDN copy is used when it loads; the packaged copy is never asked for', async () => {
  const f = fakeHost({ 'cdn/office.js': 'defines-office' });
  await expect(loadOfficeScript(f.host, opts)).resolves.toBe('cdn');
  expect(f.added).toEqual(['cdn/office.js']);
  expect(f.pendingTimers()).toBe(0);
});

test('an unreachable CDN falls back to the packaged copy', async () => {
  const f = fakeHost({ 'cdn/office.js': 'fails', 'office-js/office.js': 'defines-office' });
  await expect(loadOfficeScript(f.host, opts)).resolves.toBe('packaged');
  expect(f.added).toEqual(['cdn/office.js', 'office-js/office.js']);
  // The failed element leaves the page: office.js takes its folder from the first script naming office.js.
  expect(f.abandoned).toEqual(['cdn/office.js']);
});

test('a CDN answer that is not office.js (a captive portal page) falls back too', async () => {
  const f = fakeHost({ 'cdn/office.js': 'empty', 'office-js/office.js': 'defines-office' });
  await expect(loadOfficeScript(f.host, opts)).resolves.toBe('packaged');
});

test('a hanging CDN is given up after the timeout and its script abandoned, so office.js never runs twice', async () => {
  const f = fakeHost({ 'cdn/office.js': 'hangs', 'office-js/office.js': 'defines-office' });
  const result = loadOfficeScript(f.host, opts);
  await Promise.resolve();
  expect(f.added).toEqual(['cdn/office.js']);
  f.fireTimers();
  await expect(result).resolves.toBe('packaged');
  expect(f.abandoned).toEqual(['cdn/office.js']);
});

test('with neither copy the page still starts (as a preview without Office)', async () => {
  const f = fakeHost({ 'cdn/office.js': 'fails', 'office-js/office.js': 'fails' });
  await expect(loadOfficeScript(f.host, opts)).resolves.toBe('none');
  expect(f.abandoned).toEqual(['cdn/office.js', 'office-js/office.js']);
});
