/**
 * The command line's fetch (src/connect/node-fetch.ts): a write goes through undici's request API and must
 * come back, and fail, exactly as Node's fetch would have it, since the client decides from that whether a
 * row may be sent again. Every case goes through the real client against a loopback server.
 */
import { createClient } from '../../src/client';
import type { EncodedRequest } from '../../src/catalog';
import { bearerFetch } from '../../src/client/bearer-fetch';
import { nodeFetch } from '../../src/connect/node-fetch';
import { closedPort, fakeForFile, GUID, json } from '../client/fake-server';
import { failureOf } from '../support/api-error';

const credentials = { identifier: 'id', password: 'pw' };
const fake = fakeForFile();
const others: string[] = [];
const fetchFn = nodeFetch((input, init) => {
  others.push(`${init?.method ?? 'GET'} ${String(input)}`);
  return globalThis.fetch(input, init);
});
const client = (baseUrl = fake.server.baseUrl) => createClient({ baseUrl, credentials, fetch: fetchFn });
const create: EncodedRequest = { method: 'POST', path: '/incidents', query: [], body: { Name: 'Fire ünïcode', ReportingOrganization: 'Ops' } };

describe('nodeFetch, the command line fetch', () => {
  it('sends a write as given (headers, body bytes) and gives its answer as fetch does: status, every header, body', async () => {
    fake.answer = (_req, res) => {
      res.setHeader('x-twice', ['a', 'b']);
      res.setHeader('date', 'Thu, 26 Nov 2026 12:00:00 GMT');
      json(res, 201, { Id: GUID(1) }, { 'x-grc-statement-id': 's1' });
    };
    const before = others.length;
    const answer = await client().send('incident-create', create);
    expect(answer).toMatchObject({ status: 201, body: { Id: GUID(1) } });
    expect(answer.headers).toMatchObject({ 'x-grc-statement-id': 's1', 'x-twice': 'a, b' });
    const got = fake.server.received.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/api/incidents' });
    expect(JSON.parse(got.body)).toEqual(create.body);
    expect(got.headers).toMatchObject({
      authorization: `Basic ${Buffer.from('id:pw').toString('base64')}`,
      'content-type': 'application/json; charset=utf-8',
      'x-grc-write-ref': answer.writeRef,
    });
    // Node's fetch gives the same answer (the connection's own headers aside).
    const { connection: _c, 'keep-alive': _k, ...headers } = answer.headers;
    const byFetch = await createClient({ baseUrl: fake.server.baseUrl, credentials }).send('incident-create', create);
    const { connection: _c2, 'keep-alive': _k2, ...fetchHeaders } = byFetch.headers;
    expect({ ...byFetch, headers: fetchHeaders, writeRef: '' }).toEqual({ ...answer, headers, writeRef: '' });
    expect(others.length).toBe(before);
  });

  it("takes the headers as Headers too, as a service client's bearer fetch hands them on", async () => {
    fake.answer = (_req, res) => json(res, 201, { Id: GUID(2) });
    const bearer = createClient({ baseUrl: fake.server.baseUrl, credentials, fetch: bearerFetch(fetchFn, { accessToken: async () => 'token-1' }) });
    const answer = await bearer.send('incident-create', create);
    expect(answer).toMatchObject({ status: 201, body: { Id: GUID(2) } });
    expect(fake.server.received.at(-1)!.headers).toMatchObject({ authorization: 'Bearer token-1', 'x-grc-write-ref': answer.writeRef });
  });

  it("leaves every other request (a dataset's GET) to the fetch it was given", async () => {
    fake.answer = (_req, res) => json(res, 200, []);
    const before = others.length;
    await expect(client().download('incidents')).resolves.toMatchObject({ records: [] });
    expect(others.slice(before)).toEqual([`GET ${fake.server.baseUrl}/directdata/v1/incidents`]);
  });

  it('error answers keep their meaning: a 503 with Retry-After is "unavailable, try again in 2 s"; a 204 has no body', async () => {
    fake.answer = (_req, res) => json(res, 503, { message: 'busy' }, { 'retry-after': '2' });
    expect(await failureOf(client().send('incident-create', create))).toMatchObject({ code: 'unavailable', retryAfterMs: 2000, sent: 'yes' });
    fake.answer = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    expect(await client().send('incident-create', create)).toMatchObject({ status: 204, body: undefined });
  });

  it('a refused connection is unreachable (nothing sent, safe to retry)', async () => {
    const port = await closedPort();
    const e = await failureOf(client(`http://127.0.0.1:${port}/api`).send('incident-create', create));
    expect(e).toMatchObject({ code: 'unreachable', sent: 'no' });
    expect(e.message).toMatch(/ECONNREFUSED/);
  });

  it('an answer cut off after its headers, or no answer at all, is an unknown outcome (check before resending)', async () => {
    fake.answer = (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '60' });
      res.write('{"Id":"0000');
      res.socket?.destroy();
    };
    const cut = await failureOf(client().send('incident-create', create));
    expect(cut).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
    expect(cut.message).toMatch(/connection broke .*check the record/);
    fake.answer = (_req, res) => {
      res.socket?.destroy();
    };
    const none = await failureOf(client().send('incident-create', create));
    expect(none).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
    expect(none.message).toMatch(/before an answer came/);
  });

  it('a redirect is not followed: unknown outcome, and nothing goes where it points', async () => {
    fake.answer = (req, res) => {
      res.writeHead(307, { location: '/api/elsewhere' });
      res.end();
    };
    const before = fake.server.received.length;
    const e = await failureOf(client().send('incident-create', create));
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
    expect(e.message).toMatch(/answered with a redirect/);
    expect(fake.server.received.slice(before).map((r) => r.url)).toEqual(['/api/incidents']);
  });

  it('a cancel once the request is out is a cancel of unknown outcome; a timeout is an unknown outcome', async () => {
    for (const [reason, code] of [
      [undefined, 'cancelled'],
      [new DOMException('too slow', 'TimeoutError'), 'outcome-unknown'],
    ] as const) {
      const stop = new AbortController();
      // Aborted when the server has the request, so the abort always meets a request on its way.
      fake.answer = () => stop.abort(reason);
      expect(await failureOf(client().send('incident-create', create, { signal: stop.signal }))).toMatchObject({ code, sent: 'unknown' });
    }
  });
});
