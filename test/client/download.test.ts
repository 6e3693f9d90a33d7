import { createClient, type DataRecord, type DownloadProgress } from '../../src/client';
import { fakeForFile, GUID, json, writeChunks } from './fake-server';
import { failureOf } from '../support/api-error';

const credentials = { identifier: 'id', password: 'pw' };
const fake = fakeForFile();

const client = () => createClient({ baseUrl: fake.server.baseUrl, credentials });

const risk = (n: number, extra: Record<string, unknown> = {}) => ({
  Id: GUID(n),
  Identifier: `R-${n}`,
  Name: `Risk "${n}" [with] {brackets}, commas \\ and é 日本 😀`,
  GrossLikelihood: n % 5,
  DateIdentified: '2024-03-01',
  ControlGuids: [GUID(n + 1000)],
  ...extra,
});

/** A fetch whose answer body arrives in exactly these byte chunks (TCP would merge them on loopback). */
function chunkedFetch(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  return async () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...headers } });
  };
}

describe('client.download', () => {
  it('GETs the catalogue path below the base URL and returns the checked records, extra fields kept', async () => {
    const records = [risk(1, { SomethingNew: 'kept' }), risk(2)];
    fake.answer = (_req, res) => json(res, 200, records);
    const result = await client().download('risk');
    expect(fake.server.received.at(-1)).toMatchObject({ method: 'GET', url: '/api/directdata/v3/risk' });
    expect(fake.server.received.at(-1)!.headers.accept).toBe('application/json');
    // Straight to a service (no relay): no statement, and the result says so.
    expect(result).toEqual({
      records,
      bytes: Buffer.byteLength(JSON.stringify(records)),
      count: 2,
      evidence: { ok: false, code: 'unsigned', message: expect.any(String) },
    });
    expect(result.records[0]!.SomethingNew).toBe('kept');
  });

  it('decodes records whose multi-byte characters and escapes are split across every byte boundary', async () => {
    const records = [risk(1), risk(2, { Note: 'quote \\" backslash \\\\' })];
    const bytes = new TextEncoder().encode(JSON.stringify(records));
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const c = createClient({
        baseUrl: 'http://x.test/api',
        credentials,
        fetch: chunkedFetch([bytes.subarray(0, cut), bytes.subarray(cut, cut + 3), bytes.subarray(cut + 3)]),
      });
      expect((await c.download('risk')).records).toEqual(records);
    }
    const oneByteAtATime = [...bytes].map((b) => Uint8Array.of(b));
    const c = createClient({
      baseUrl: 'http://x.test/api',
      credentials,
      fetch: chunkedFetch(oneByteAtATime),
    });
    expect((await c.download('risk')).records).toEqual(records);
  });

  it('unwraps a single-array envelope', async () => {
    fake.answer = (_req, res) =>
      json(res, 200, { '@odata.context': 'x', value: [risk(1), risk(2)], count: 2 });
    expect((await client().download('risk')).count).toBe(2);
  });

  it('streams over real HTTP: batches (about 1 MB of text each) reach onBatch before the server has sent the rest', async () => {
    const first = Array.from({ length: 8000 }, (_, i) => risk(i));
    expect(JSON.stringify(first).length).toBeGreaterThan(1 << 20);
    const firstText = JSON.stringify(first).slice(0, -1); // without the closing bracket
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    fake.answer = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeChunks(res, [Buffer.from(firstText + ',')]);
      await released;
      res.end(JSON.stringify([risk(5000)]).slice(1));
    };
    const seen: DataRecord[] = [];
    const result = await client().download('risk', {
      onBatch: (batch) => {
        seen.push(...batch);
        release(); // the server sends the last record only once a batch has arrived
      },
    });
    expect(result.records).toEqual([]);
    expect(result.count).toBe(8001);
    expect(seen).toHaveLength(8001);
    expect(seen.at(-1)!.Id).toBe(GUID(5000));
  });

  it('waits for an async onBatch before reading on', async () => {
    fake.answer = (_req, res) =>
      json(
        res,
        200,
        Array.from({ length: 5000 }, (_, i) => risk(i)),
      );
    const order: string[] = [];
    await client().download('risk', {
      onBatch: async (batch) => {
        order.push(`start ${batch.length}`);
        await Promise.resolve();
        order.push('end');
      },
    });
    expect(order.length).toBeGreaterThan(2);
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe('end');
  });

  it('reports progress in bytes and records, with totalBytes from Content-Length', async () => {
    const text = JSON.stringify(Array.from({ length: 4000 }, (_, i) => risk(i)));
    fake.answer = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      res.end(text);
    };
    const seen: DownloadProgress[] = [];
    await client().download('risk', { onProgress: (p) => seen.push(p), onBatch: () => undefined });
    const last = seen.at(-1)!;
    expect(last).toEqual({
      bytes: Buffer.byteLength(text),
      records: 4000,
      totalBytes: Buffer.byteLength(text),
    });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.bytes).toBeGreaterThanOrEqual(seen[i - 1]!.bytes);
  });

  it('names the record index and field of a record that does not match the schema → bad-answer', async () => {
    fake.answer = (_req, res) =>
      json(res, 200, [risk(1), risk(2), risk(3, { ControlGuids: [GUID(1), 'not-a-guid'] })]);
    const e = await failureOf(() => client().download('risk'));
    expect(e).toMatchObject({
      code: 'bad-answer',
      sent: 'yes',
      endpoint: 'risk',
      details: [{ field: 'ControlGuids[1]', message: 'expected a GUID', record: 3 }],
    });
    expect(e.message).toMatch(/Record 3 \(R-3\)/);
    expect(e.message).toMatch(/ControlGuids\[1\]/);
  });

  it('an answer that is not a list → bad-answer', async () => {
    fake.answer = (_req, res) => json(res, 200, { message: 'hello' });
    expect(await failureOf(() => client().download('risk'))).toMatchObject({ code: 'bad-answer' });
    fake.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    };
    const e = await failureOf(() => client().download('risk'));
    expect(e.code).toBe('bad-answer');
    expect(e.message).toMatch(/not a JSON list/);
  });

  it('cancels mid-stream with an AbortSignal: cancelled, and the server sees the connection close', async () => {
    const controller = new AbortController();
    let closed!: () => void;
    const serverSawClose = new Promise<void>((r) => (closed = r));
    fake.answer = async (_req, res) => {
      res.on('close', () => closed());
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeChunks(res, [
        Buffer.from(`${JSON.stringify(Array.from({ length: 2000 }, (_, i) => risk(i))).slice(0, -1)},`),
      ]);
      // and never finishes
    };
    const e = await failureOf(() =>
      client().download('risk', {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.bytes > 0) controller.abort();
        },
      }),
    );
    expect(e).toMatchObject({ code: 'cancelled' });
    await serverSawClose;
  });

  it('a signal aborted before the call sends nothing', async () => {
    const before = fake.server.received.length;
    const e = await failureOf(() => client().download('risk', { signal: AbortSignal.abort() }));
    expect(e).toMatchObject({ code: 'cancelled', sent: 'no' });
    expect(fake.server.received.length).toBe(before);
  });

  it('a connection dropped in the middle of the answer → outcome-unknown', async () => {
    fake.answer = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeChunks(res, [Buffer.from('[{"Id":"' + GUID(1) + '"},{"Id":"')]);
      res.socket?.destroy();
    };
    const e = await failureOf(() => client().download('risk'));
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
    expect(e.message).toMatch(/middle of the answer/);
  });

  it('an answer that ends cleanly but before the list is complete → bad-answer saying how far it got', async () => {
    fake.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[{"Id":"' + GUID(1) + '"},{"Id":');
    };
    const e = await failureOf(() => client().download('risk'));
    expect(e.code).toBe('bad-answer');
    expect(e.message).toMatch(/ended before the list of records was complete/);
  });

  it('fills a {guid} path parameter and refuses a missing one without sending', async () => {
    fake.answer = (_req, res) => json(res, 200, []);
    await client().download('samples', { params: { guid: GUID(9) } });
    expect(fake.server.received.at(-1)!.url).toBe(`/api/controldata/v1/testplans/${GUID(9)}/samples`);
    const before = fake.server.received.length;
    const e = await failureOf(() => client().download('samples'));
    expect(e).toMatchObject({ code: 'invalid-body', sent: 'no' });
    expect(fake.server.received.length).toBe(before);
  });

  it('testConnection loads auditworkflow and counts its records', async () => {
    fake.answer = (_req, res) =>
      json(res, 200, [{ Id: GUID(1), Name: 'Standard', Steps: ['Plan', 'Execute'] }]);
    await expect(client().testConnection()).resolves.toEqual({ count: 1 });
    expect(fake.server.received.at(-1)!.url).toBe('/api/directdata/v1/auditworkflow');
  });
});
