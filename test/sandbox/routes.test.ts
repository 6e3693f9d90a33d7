import { catalog } from '../../src/catalog';
import { bindPaths } from '../catalog/bind-paths';
import { HANDLERS } from '../../src/sandbox/rules';
import { Store } from '../../src/sandbox/store';
import { jsonArrayStream } from '../../src/sandbox/json-stream';
import { call, post, start } from './helpers';
import { startSandbox } from '../../src/sandbox';
import { SANDBOX_ABOUT_PATH, sandboxAbout } from '../../src/contracts/sandbox';

describe('sandbox routes from the catalogue', () => {
  it('has a handler for every catalogue operation and data for every catalogue dataset', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(catalog.operations.map((o) => o.id).sort());
    const store = new Store(1, 5);
    for (const ds of catalog.datasets) expect(store.has(ds.id)).toBe(true);
  });

  it('serves assumed operations at their bound paths when started from a binding', async () => {
    const sb = await start({ binding: bindPaths({ 'incident-create': '/incidentdata/v2/incidents' }) });
    try {
      expect(
        (await post(sb, '/incidentdata/v2/incidents', { Name: 'x', ReportingOrganization: 'Finance' }))
          .status,
      ).toBe(201);
      expect(
        (
          await post(sb, catalog.operation('incident-create').path, {
            Name: 'x',
            ReportingOrganization: 'Finance',
          })
        ).status,
      ).toBe(404);
    } finally {
      await sb.close();
    }
  });

  it('refuses a body over 10 MiB with 413 in the service error format (request size limit: our assumption)', async () => {
    const sb = await start();
    try {
      const guid = sb.store.ctx.guid('task', 0);
      const big = { FileName: 'big.bin', ContentBase64: 'A'.repeat(11 * 1024 * 1024) };
      const a = await post(sb, catalog.operation('task-document').path.replace('{guid}', guid), big);
      expect(a).toMatchObject({ status: 413, body: { message: 'The request body is too large.' } });
    } finally {
      await sb.close();
    }
  });

  it('keeps the admin routes outside the API root', async () => {
    const sb = await start();
    try {
      expect((await call(sb, '/_sandbox/counts')).status).toBe(404);
      const counts = await (await fetch(sb.url.replace(/\/api$/, '/_sandbox/counts'))).json();
      expect(counts.risk).toBe(50);
    } finally {
      await sb.close();
    }
  });

  it('says what it is and which environment it emulates, without a key, as the contract grc-sheets post reads', async () => {
    const prd = await startSandbox({ port: 0, scale: 5, environment: 'PRD' });
    try {
      const about = await fetch(prd.url.replace(/\/api$/, SANDBOX_ABOUT_PATH));
      expect(about.status).toBe(200);
      expect(sandboxAbout.parse(await about.json())).toEqual({ sandbox: true, environment: 'PRD' });
    } finally {
      await prd.close();
    }
  });
});

describe('dataset streaming', () => {
  it('writes a valid JSON array, also when empty', async () => {
    const text = async (items: unknown[]) => {
      let s = '';
      for await (const c of jsonArrayStream(items[Symbol.iterator]())) s += c;
      return s;
    };
    expect(await text([])).toBe('[]');
    expect(JSON.parse(await text([{ a: 1 }, { b: [2] }]))).toEqual([{ a: 1 }, { b: [2] }]);
  });

  it('generates records only as fast as the reader takes them (backpressure)', async () => {
    let made = 0;
    function* endless() {
      for (;;) yield { i: made++, pad: 'x'.repeat(100) };
    }
    const stream = jsonArrayStream(endless());
    const first = await new Promise<Buffer>((resolve) =>
      stream.once('data', (chunk: Buffer) => {
        stream.pause();
        resolve(chunk);
      }),
    );
    await new Promise((r) => setImmediate(r));
    // One chunk of about 64 KiB plus the stream's high-water mark, nothing like the whole (endless) dataset.
    expect(first.length).toBeLessThan(70 * 1024);
    expect(made).toBeLessThan(3000);
    stream.destroy();
  });

  it('streams a big dataset (20,000 risks) as a chunked answer, not one string', async () => {
    const sb = await start({ scale: 20_000 });
    try {
      const res = await fetch(`${sb.url}${catalog.dataset('risk').path}`, {
        headers: { authorization: 'Basic ' + Buffer.from('admin:pw-admin').toString('base64') },
      });
      expect(res.headers.get('content-length')).toBeNull();
      let bytes = 0;
      let last = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        last = Buffer.from(chunk).toString('latin1');
      }
      expect(bytes).toBeGreaterThan(100 * 20_000);
      expect(last).toMatch(/"Identifier":"R-020000"[^]*\}\]$/);
    } finally {
      await sb.close();
    }
  });
});
