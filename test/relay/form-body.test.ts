import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { catalog, fillPath, type BoundOperation } from '../../src/catalog';
import type { Relay } from '../../src/relay';
import { bindPaths } from '../catalog/bind-paths';
import { AUTH, errorCode, startFakeUpstream, startTestRelay, type FakeUpstream } from './helpers';

/**
 * Form bodies through the relay: forwarded only on a call whose binding takes that form, with no field the
 * binding does not place, parsed before anything is sent, within the body limit; JSON stays JSON-only.
 */
let upstream: FakeUpstream;
let relay: Relay;

const INCIDENT = '0f8fad5b-d9cb-469f-a165-70867728950e';
const link = `/api/acc${fillPath(catalog.operation('incident-hyperlink').path, { guid: INCIDENT })}`;
const document = `/api/acc${fillPath(catalog.operation('incident-document').path, { guid: INCIDENT })}`;
const incidents = `/api/acc${catalog.operation('incident-create').path}`;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const b = bindPaths({});
  (b.endpoints['incident-hyperlink'] as BoundOperation).form = 'urlencoded';
  const doc = b.endpoints['incident-document'] as BoundOperation;
  doc.form = 'multipart';
  doc.placements = doc.placements
    .filter((p) => p.field !== 'FileName')
    .map((p) => (p.field === 'ContentBase64' ? { ...p, at: '/file', encoding: { kind: 'file' as const, nameField: 'FileName' } } : p));
  const file = join(mkdtempSync(join(tmpdir(), 'relay-form-')), 'binding.json');
  writeFileSync(file, JSON.stringify(b));
  ({ relay } = await startTestRelay(upstream, {
    environments: { acc: { baseUrl: `${upstream.url}/api`, binding: file } },
    limits: { bodyBytes: 2048 },
  }));
});
afterAll(async () => {
  await relay.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

async function post(path: string, contentType: string, body: string | Buffer) {
  const res = await request(relay.url + path, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': contentType },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, code: errorCode(text), text };
}

const multipart = (boundary: string, parts: { name: string; filename?: string; content: string }[]) =>
  Buffer.from(
    parts
      .map(
        (p) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n${p.content}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`,
  );

describe('form bodies through the relay', () => {
  it('forwards an urlencoded body of placed fields as it is, with its content type', async () => {
    const body = 'Url=https%3A%2F%2Fintranet.example.com%2Fa&Description=The+flood';
    const r = await post(link, 'application/x-www-form-urlencoded; charset=utf-8', body);
    expect(r.status).toBe(200);
    expect(upstream.requests.map((x) => [x.body, x.headers['content-type']])).toEqual([
      [body, 'application/x-www-form-urlencoded; charset=utf-8'],
    ]);
  });

  it('forwards a multipart body with a file part where the binding takes multipart', async () => {
    const body = multipart('b0undary', [{ name: 'file', filename: 'report.txt', content: 'hello' }]);
    const r = await post(document, 'multipart/form-data; boundary=b0undary', body);
    expect(r.status).toBe(200);
    expect(upstream.requests.map((x) => x.body)).toEqual([body.toString('utf8')]);
  });

  it('refuses JSON where the binding takes a form, and a form where it takes JSON: nothing is sent', async () => {
    expect(await post(link, 'application/json', '{"Url":"https://x.example"}')).toMatchObject({ status: 415, code: 'form-only' });
    expect(await post(incidents, 'application/x-www-form-urlencoded', 'Name=x')).toMatchObject({ status: 415, code: 'json-only' });
    // The other form than the binding's is refused too.
    const parts = multipart('b', [{ name: 'Url', content: 'https://x.example' }]);
    expect(await post(link, 'multipart/form-data; boundary=b', parts)).toMatchObject({ status: 415, code: 'form-only' });
    expect(await post(document, 'multipart/form-data', parts)).toMatchObject({ status: 415, code: 'form-only' });
    expect(upstream.requests).toEqual([]);
  });

  it('refuses a form with a field the binding does not place, or one that does not parse', async () => {
    const extra = await post(link, 'application/x-www-form-urlencoded', 'Url=https%3A%2F%2Fx.example&redirect=evil');
    expect(extra).toMatchObject({ status: 400, code: 'invalid-form' });
    expect(JSON.parse(extra.text).error.message).toContain('"redirect"');
    expect(await post(link, 'application/x-www-form-urlencoded', 'Url=%E0%A4%A')).toMatchObject({ status: 400, code: 'invalid-form' });
    const cut = Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nhello');
    expect(await post(document, 'multipart/form-data; boundary=b', cut)).toMatchObject({ status: 400, code: 'invalid-form' });
    expect(upstream.requests).toEqual([]);
  });

  it('holds a form body to the same size limit as JSON', async () => {
    const r = await post(link, 'application/x-www-form-urlencoded', `Url=${'a'.repeat(4096)}`);
    expect(r).toMatchObject({ status: 413, code: 'body-too-large' });
    expect(upstream.requests).toEqual([]);
  });
});
