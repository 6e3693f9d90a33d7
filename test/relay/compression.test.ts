/**
 * What a cold start of the add-in costs over the wire (issue 27, the first load): the relay serves the
 * build's precompressed copies (scripts/precompress.js) and its own JSON answers brotli or gzip when the
 * browser accepts it, hashed bundles for a year (immutable), pages revalidated (no-cache + ETag). One real
 * relay on loopback for the file, raw HTTP (undici's request neither asks for nor decodes a coding).
 */
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { acceptedCoding } from '../../src/relay/compress';
import { startFakeUpstream, startTestRelay, type FakeUpstream } from './helpers';
import type { Relay } from '../../src/relay';

const PAGE = `<!doctype html><title>grc-sheets</title>${'<p>the taskpane</p>'.repeat(200)}`;
const BUNDLE = `console.log(${JSON.stringify('a hashed bundle '.repeat(400))});`;
const NO_COPIES = `console.log(${JSON.stringify('no copies beside me '.repeat(300))});`;
const YEAR = 'public, max-age=31536000, immutable';

let upstream: FakeUpstream;
let relay: Relay;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const dir = mkdtempSync(join(tmpdir(), 'relay-compression-'));
  const write = (name: string, text: string, copies = true) => {
    writeFileSync(join(dir, name), text);
    if (!copies) return;
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  };
  write('taskpane.html', PAGE);
  write('taskpane.0a1b2c3d.js', BUNDLE);
  write('plain.js', NO_COPIES, false);
  // A copy older than its file (the file edited after the build): served as the file itself.
  write('stale.js', BUNDLE);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const ext of ['.br', '.gz']) utimesSync(join(dir, `stale.js${ext}`), hourAgo, hourAgo);
  // Enough environments for a list worth compressing (over 1 KB of JSON).
  const environments = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`env-${i}`, { baseUrl: `${upstream.url}/api` }]),
  );
  ({ relay } = await startTestRelay(upstream, { staticDir: dir, environments }));
});
afterAll(async () => {
  await relay?.close();
  await upstream?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await request(`${relay.url}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

describe('static files: precompressed copies, by what the browser accepts', () => {
  it('brotli to a browser (br listed), gzip to one without br, the file itself to one asking for neither', async () => {
    const br = await get('/taskpane.0a1b2c3d.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(BUNDLE);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(BUNDLE.length / 10);
    expect(br.headers.vary).toBe('Origin, Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');

    const gz = await get('/taskpane.0a1b2c3d.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BUNDLE);

    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const plain = await get('/taskpane.0a1b2c3d.js', accept ? { 'accept-encoding': accept } : {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(BUNDLE);
    }
  });

  it('hashed bundles are kept a year (immutable); the page is revalidated, each coding with its own ETag', async () => {
    const bundle = await get('/taskpane.0a1b2c3d.js', { 'accept-encoding': 'br' });
    expect(bundle.headers['cache-control']).toBe(YEAR);

    const page = await get('/taskpane.html', { 'accept-encoding': 'gzip, br' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toBe(PAGE);
    const brTag = String(page.headers.etag);
    const gzTag = String((await get('/taskpane.html', { 'accept-encoding': 'gzip' })).headers.etag);
    expect(brTag).not.toBe(gzTag);

    const again = await get('/taskpane.html', { 'accept-encoding': 'gzip, br', 'if-none-match': brTag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(again.headers.etag).toBe(brTag);
    // The browser's tag of the brotli bytes does not stand for the gzip ones.
    expect((await get('/taskpane.html', { 'accept-encoding': 'gzip', 'if-none-match': brTag })).status).toBe(
      200,
    );
    // A list of tags (a cache holding both).
    expect(
      (await get('/taskpane.html', { 'accept-encoding': 'gzip', 'if-none-match': `${brTag}, ${gzTag}` }))
        .status,
    ).toBe(304);
  });

  it('HEAD says the coded length; a file without copies and one whose copies are older are sent as they are', async () => {
    const head = await request(`${relay.url}/taskpane.html`, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br' },
    });
    await head.body.dump();
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(brotliCompressSync(PAGE).length);

    const plain = await get('/plain.js', { 'accept-encoding': 'br, gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Origin');
    expect(plain.body.toString()).toBe(NO_COPIES);
    expect(plain.headers['cache-control']).toBe('no-cache');

    const stale = await get('/stale.js', { 'accept-encoding': 'br, gzip' });
    expect(stale.headers['content-encoding']).toBeUndefined();
    expect(stale.body.toString()).toBe(BUNDLE);
  });
});

describe("the relay's JSON answers: brotli or gzip when accepted", () => {
  it('/api/environments, compressed as asked, the same list as uncompressed', async () => {
    const plain = await get('/api/environments');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = JSON.parse(plain.body.toString()) as { name: string }[];
    expect(list).toHaveLength(20);
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await get('/api/environments', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers.vary).toBe('Origin, Accept-Encoding');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
    expect(br.body.length).toBeLessThan(plain.body.length / 4);

    const gz = await get('/api/environments', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
  });

  it('a small answer (under 1 KB) is sent as it is', async () => {
    const config = await get('/api/auth/config', { 'accept-encoding': 'br, gzip' });
    expect(config.status).toBe(200);
    expect(config.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(config.body.toString())).toMatchObject({ signIn: null });
  });
});

describe('Accept-Encoding as browsers and proxies write it', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['identity', null],
    ['gzip;q=0', null],
    ['', null],
  ])('%j -> %s', (header, coding) => {
    expect(acceptedCoding(header, ['br', 'gzip'])).toBe(coding);
  });

  it('only among the codings there are', () => {
    expect(acceptedCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(acceptedCoding('br', ['gzip'])).toBeNull();
    expect(acceptedCoding('br, gzip', [])).toBeNull();
  });
});
