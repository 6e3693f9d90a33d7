import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalog } from '../../../src/catalog';
import { describeEnvironment } from '../../../src/contracts/environments';
import { environmentBaseUrl, fetchEnvironment, fetchEnvironments } from '../../../src/taskpane/connection/environments';

let server: Server;
let origin: string;
let answer: { status: number; body: string };
let view: { status: number; body: string };

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/api/environments/ACC') {
      res.writeHead(view.status, { 'content-type': 'application/json' }).end(view.body);
      return;
    }
    if (req.url !== '/api/environments') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("the relay's environments are read as names and production flags; one environment's view when connecting", async () => {
  const list = [
    { name: 'ACC', production: false },
    { name: 'PRD', production: true },
  ];
  answer = { status: 200, body: JSON.stringify(list) };
  await expect(fetchEnvironments(origin)).resolves.toEqual({ ok: true, environments: list });
  const acc = describeEnvironment('ACC', false, catalog, null);
  view = { status: 200, body: JSON.stringify(acc) };
  await expect(fetchEnvironment(origin, 'ACC')).resolves.toEqual({ ok: true, environment: acc });
  // The relay's refusal is shown in its own words (a sign-in relay's policy).
  view = { status: 403, body: JSON.stringify({ error: { code: 'policy-refused', message: 'Your rules do not give you the environment "ACC".' } }) };
  await expect(fetchEnvironment(origin, 'ACC')).resolves.toEqual({ ok: false, message: 'Your rules do not give you the environment "ACC".' });
  view = { status: 200, body: JSON.stringify({ ...acc, name: 'PRD' }) };
  await expect(fetchEnvironment(origin, 'ACC')).resolves.toEqual({ ok: false, message: expect.stringContaining('not in the expected form') });
});

test('a relay error status is reported with the URL to check', async () => {
  answer = { status: 500, body: '{}' };
  const result = await fetchEnvironments(origin);
  expect(result).toEqual({ ok: false, message: expect.stringContaining(`500 to GET ${origin}/api/environments`) });
});

test('a list in the wrong form is refused rather than half shown', async () => {
  answer = { status: 200, body: JSON.stringify([{ name: 'ACC', production: 'no' }]) };
  await expect(fetchEnvironments(origin)).resolves.toEqual({ ok: false, message: expect.stringContaining('not in the expected form') });
});

test('an empty list says to configure an environment', async () => {
  answer = { status: 200, body: '[]' };
  await expect(fetchEnvironments(origin)).resolves.toEqual({ ok: false, message: expect.stringContaining('no environments configured') });
});

test('an unreachable relay is named in the message', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await expect(fetchEnvironments(deadOrigin)).resolves.toEqual({ ok: false, message: expect.stringContaining(`Could not reach the relay at ${deadOrigin}`) });
});

test('calls for an environment go to the relay under /api/<environment>', () => {
  expect(environmentBaseUrl('https://relay.example.com', 'sandbox-acc')).toBe('https://relay.example.com/api/sandbox-acc');
});
