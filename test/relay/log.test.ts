import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { request } from 'undici';
import { startRelay } from '../../src/relay';
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
});
