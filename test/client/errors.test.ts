import { ApiError, createClient, isApiError } from '../../src/client';
import { closedPort, fakeForFile, json, relayRefusal } from './fake-server';
import { failureOf } from '../support/api-error';

const credentials = { identifier: 'key-id', password: 'pässwörd:with-colon' };
const fake = fakeForFile();

const load = () => createClient({ baseUrl: fake.server.baseUrl, credentials }).download('risk');
const create = () =>
  createClient({ baseUrl: fake.server.baseUrl, credentials }).call('incident-create', {
    body: { Name: 'Fire', ReportingOrganization: 'Ops' },
  });

describe('client errors: the spec error table and the relay', () => {
  it('sends Basic credentials as UTF-8 base64 of identifier:password', async () => {
    fake.answer = (_req, res) => json(res, 200, []);
    await load();
    const header = fake.server.received.at(-1)!.headers.authorization!;
    expect(header.startsWith('Basic ')).toBe(true);
    expect(Buffer.from(header.slice(6), 'base64').toString('utf8')).toBe('key-id:pässwörd:with-colon');
  });

  it('400 No authenticationScheme was specified → no-auth-scheme', async () => {
    fake.answer = (_req, res) => json(res, 400, { message: 'No authenticationScheme was specified.' });
    const e = await failureOf(load);
    expect(e).toMatchObject({ code: 'no-auth-scheme', status: 400, sent: 'yes', endpoint: 'risk' });
    expect(e.message).toMatch(/identifier and password/);
  });

  it('401 → invalid-credentials, telling the user about expiry, environments and Requested IP addresses', async () => {
    fake.answer = (_req, res) => json(res, 401, { message: 'The credentials are invalid.' });
    const e = await failureOf(load);
    expect(e).toMatchObject({ code: 'invalid-credentials', status: 401, sent: 'yes' });
    expect(e.message).toMatch(/expired/);
    expect(e.message).toMatch(/ACC\/PRD/);
    expect(e.message).toMatch(/Requested IP addresses/);
  });

  it("a 404 the practice sandbox marks as its own gap says so, not that the service or the binding is wrong", async () => {
    fake.answer = (_req, res) => json(res, 404, { message: 'Not found.', sandbox: 'no-data' });
    const lacking = await failureOf(load);
    expect(lacking).toMatchObject({ code: 'not-found', status: 404, sandboxGap: 'no-data', endpoint: 'risk' });
    expect(lacking.message).toMatch(/^The practice sandbox has no data for "Risks": only your own service has it/);
    fake.answer = (_req, res) => json(res, 404, { message: 'Not found.', sandbox: 'no-route' });
    const elsewhere = await failureOf(load);
    expect(elsewhere).toMatchObject({ code: 'not-found', sandboxGap: 'no-route' });
    expect(elsewhere.message).toMatch(/started without this environment's binding/);
    // The service's own 404 carries no mark: no gap is claimed.
    fake.answer = (_req, res) => json(res, 404, { message: 'Not found.' });
    expect((await failureOf(load)).sandboxGap).toBeUndefined();
  });

  it('403 Forbidden to execute action → forbidden', async () => {
    fake.answer = (_req, res) => json(res, 403, { message: 'Forbidden to execute action.' });
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'forbidden', status: 403, sent: 'yes', endpoint: 'incident-create' });
    expect(e.message).toMatch(/Forbidden to execute action/);
    expect(e.message).toMatch(/Application Administrator/);
  });

  it('the message Forbidden to execute action → forbidden whatever the 4xx status', async () => {
    fake.answer = (_req, res) => json(res, 400, { message: 'Forbidden to execute action.' });
    expect(await failureOf(create)).toMatchObject({ code: 'forbidden', status: 400 });
  });

  it('400 with field errors → rejected with details, the fields named in the message', async () => {
    fake.answer = (_req, res) =>
      json(res, 400, {
        message: 'The incident was rejected.',
        errors: [{ field: 'CustomFields[0]', message: 'belongs to an incident type that is not selected' }],
      });
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'rejected', status: 400, sent: 'yes' });
    expect(e.details).toEqual([
      { field: 'CustomFields[0]', message: 'belongs to an incident type that is not selected' },
    ]);
    expect(e.message).toMatch(/The incident was rejected\. CustomFields\[0\]: belongs to an incident type/);
  });

  it('422 with ASP.NET-style errors {Field: [messages]} → rejected with details', async () => {
    fake.answer = (_req, res) =>
      json(res, 422, {
        title: 'One or more validation errors occurred.',
        errors: { Name: ['The Name field is required.'] },
      });
    const e = await failureOf(create);
    expect(e).toMatchObject({
      code: 'rejected',
      status: 422,
      details: [{ field: 'Name', message: 'The Name field is required.' }],
    });
  });

  it('404 on an assumed path → not-found saying the path is assumed and can be configured', async () => {
    fake.answer = (_req, res) => json(res, 404, { message: 'Not found' });
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'not-found', status: 404 });
    expect(e.message).toMatch(/assumed/);
    expect(e.message).toMatch(/\/incidents/);
  });

  it('429 with Retry-After seconds → rate-limited with retryAfterMs', async () => {
    fake.answer = (_req, res) => json(res, 429, { message: 'Too many requests' }, { 'retry-after': '7' });
    const e = await failureOf(load);
    expect(e).toMatchObject({ code: 'rate-limited', status: 429, retryAfterMs: 7000, sent: 'yes' });
    expect(e.message).toMatch(/7 s/);
  });

  it('503 with Retry-After as an HTTP date → unavailable with retryAfterMs', async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    fake.answer = (_req, res) => json(res, 503, { message: 'Down for maintenance' }, { 'retry-after': at });
    const e = await failureOf(load);
    expect(e.code).toBe('unavailable');
    expect(e.retryAfterMs).toBeGreaterThan(100_000);
    expect(e.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it('500 on a write → server-error telling the user to check before sending again', async () => {
    fake.answer = (_req, res) => json(res, 500, { message: 'Object reference not set' });
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'server-error', status: 500, sent: 'yes' });
    expect(e.message).toMatch(/check the record/);
  });

  it('a non-JSON error page → a message with the status and an excerpt, never a crash', async () => {
    fake.answer = (_req, res) => {
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end('<html><body>Bad\n request   here</body></html>');
    };
    const e = await failureOf(load);
    expect(e).toMatchObject({ code: 'rejected', status: 400 });
    expect(e.message).toMatch(/\(400\)/);
    expect(e.message).toMatch(/<html><body>Bad request here/);
  });

  it('an empty error body → a message with the status', async () => {
    fake.answer = (_req, res) => {
      res.writeHead(409);
      res.end();
    };
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'rejected', status: 409 });
    expect(e.message).toMatch(/409/);
  });

  it('relay 502 upstream-unreachable → unreachable, sent no', async () => {
    fake.answer = (_req, res) => relayRefusal(res, 502, 'upstream-unreachable', 'connect ECONNREFUSED');
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'unreachable', sent: 'no', status: 502 });
  });

  it('relay 504 upstream-timeout → outcome-unknown, sent unknown, the user told to check before resending a write', async () => {
    fake.answer = (_req, res) => relayRefusal(res, 504, 'upstream-timeout', 'no answer in 120 s');
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown', status: 504 });
    expect(e.message).toMatch(/check the record/);
  });

  it('relay refusals (413, unknown environment) → relay, sent no, with the relay message', async () => {
    fake.answer = (_req, res) => relayRefusal(res, 413, 'body-too-large', 'The body is larger than 1 MiB.');
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'relay', sent: 'no', status: 413 });
    expect(e.message).toMatch(/larger than 1 MiB/);
  });

  it("a relay refusal's sentence, code and status are values on the error; the message says them in one line", async () => {
    fake.answer = (_req, res) => relayRefusal(res, 403, 'policy-refused', 'Refused by rule "compliance".');
    const e = await failureOf(load);
    expect(e.relay).toEqual({ sentence: 'The relay says: Refused by rule "compliance".', code: 'policy-refused', status: 403 });
    expect(e.message).toBe('The relay says: Refused by rule "compliance". (policy-refused, 403)');
    // A service's own answer with a parenthesis at its end is not taken for the relay's.
    fake.answer = (_req, res) => json(res, 409, { message: 'Conflict (record-locked, 409)' });
    const service = await failureOf(load);
    expect(service.relay).toBeUndefined();
    expect(service.message).toContain('Conflict (record-locked, 409)');
  });

  it('every relay code maps to a client code and says whether the service can have seen the call', async () => {
    const cases: [number, string, string, string][] = [
      [502, 'upstream-untrusted-certificate', 'unreachable', 'no'],
      [502, 'upstream-failed', 'outcome-unknown', 'unknown'],
      [502, 'upstream-redirect', 'relay', 'yes'],
      [401, 'no-credentials', 'no-auth-scheme', 'no'],
      [404, 'unknown-environment', 'relay', 'no'],
      [404, 'not-catalogued', 'relay', 'no'],
      [503, 'shutting-down', 'unavailable', 'no'],
      [500, 'something-new', 'relay', 'unknown'],
    ];
    for (const [status, code, ours, sent] of cases) {
      fake.answer = (_req, res) =>
        relayRefusal(res, status, code, `relay message for ${code}`);
      const e = await failureOf(create);
      expect([code, e.code, e.sent]).toEqual([code, ours, sent]);
      expect(e.message).toContain(`relay message for ${code}`);
    }
  });

  it("a service answer in the relay's body shape, without the relay's header, stays the service's (sent yes)", async () => {
    fake.answer = (_req, res) =>
      json(res, 400, { error: { code: 'ValidationFailed', message: 'Name is required.' } });
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'rejected', sent: 'yes', status: 400 });
    expect(e.message).toMatch(/Name is required/);
    fake.answer = (_req, res) =>
      json(res, 404, { error: { code: 'not-catalogued', message: 'No such incident.' } });
    expect(await failureOf(create)).toMatchObject({ code: 'not-found', sent: 'yes' });
  });

  it('the relay rate limit (429 with Retry-After) → rate-limited with retryAfterMs, nothing sent', async () => {
    fake.answer = (_req, res) =>
      relayRefusal(res, 429, 'rate-limited', 'Too many requests', { 'retry-after': '2' });
    expect(await failureOf(load)).toMatchObject({ code: 'rate-limited', sent: 'no', retryAfterMs: 2000 });
  });

  it('a 504 from some other gateway → outcome-unknown', async () => {
    fake.answer = (_req, res) => {
      res.writeHead(504, { 'content-type': 'text/html' });
      res.end('<h1>Gateway Timeout</h1>');
    };
    const e = await failureOf(load);
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown', status: 504 });
    expect(e.message).toMatch(/loading again is safe/);
  });

  it('never puts the credentials in a message, even when an error page echoes the Authorization header', async () => {
    fake.answer = (req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`bad header: Authorization: ${req.headers.authorization}`);
    };
    const e = await failureOf(load);
    const encoded = Buffer.from(`${credentials.identifier}:${credentials.password}`).toString('base64');
    expect(e.message).not.toContain(encoded);
    expect(e.message).not.toContain(credentials.password);
    expect(e.message).toMatch(/Basic \[hidden\]/);
  });

  it('connection refused (a closed port) → unreachable, sent no, safe to retry', async () => {
    const port = await closedPort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/api`, credentials });
    const e = await failureOf(() =>
      client.call('incident-create', { body: { Name: 'x', ReportingOrganization: 'y' } }),
    );
    expect(e).toMatchObject({ code: 'unreachable', sent: 'no' });
    expect(e.message).toMatch(/ECONNREFUSED/);
    expect(e.message).not.toContain(credentials.password);
  });

  it("a browser's generic Failed to fetch → outcome-unknown (we cannot tell whether it was sent)", async () => {
    const client = createClient({
      baseUrl: 'https://relay.example/api/acc',
      credentials,
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const e = await failureOf(() =>
      client.call('incident-create', { body: { Name: 'x', ReportingOrganization: 'y' } }),
    );
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
  });

  it('a connection dropped before the answer of a POST → outcome-unknown, never retried', async () => {
    fake.answer = (req, res) => {
      res.socket?.destroy();
    };
    const before = fake.server.received.length;
    const e = await failureOf(create);
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
    expect(e.message).toMatch(/check the record/);
    expect(fake.server.received.length - before).toBe(1);
  });

  it('a GET whose connection breaks before any answer is tried once more', async () => {
    let calls = 0;
    fake.answer = (req, res) => {
      calls++;
      if (calls === 1) res.socket?.destroy();
      else json(res, 200, []);
    };
    await expect(load()).resolves.toMatchObject({ count: 0 });
    expect(calls).toBe(2);
  });

  it('a timeout (AbortSignal.timeout) after sending → outcome-unknown, not cancelled', async () => {
    fake.answer = () => undefined; // never answers
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials });
    const e = await failureOf(() =>
      client.call('incident-create', {
        body: { Name: 'x', ReportingOrganization: 'y' },
        signal: AbortSignal.timeout(100),
      }),
    );
    expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
  });

  it('isApiError also recognises an ApiError-shaped object from another copy of the module', () => {
    expect(isApiError(new ApiError({ code: 'cancelled', sent: 'no', message: 'Cancelled.' }))).toBe(true);
    expect(isApiError(Object.assign(new Error('x'), { name: 'ApiError', code: 'forbidden' }))).toBe(true);
    expect(isApiError(Object.assign(new Error('x'), { name: 'ApiError', code: 'nonsense' }))).toBe(false);
    expect(isApiError(new Error('x'))).toBe(false);
  });
});
