import { request } from 'undici';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { demoKey } from '../../src/sandbox/keys';
import { captureLog, errorCode } from './helpers';

const basic = (id: string, pw: string) => `Basic ${Buffer.from(`${id}:${pw}`).toString('base64')}`;

let sandbox: Sandbox;
let relay: Relay;
let log: ReturnType<typeof captureLog>;
const key = {
  ...demoKey('ACC'),
  identifier: 'relay-sandbox-key',
  password: 'relay-sandbox-password-3k',
  allowedIps: ['10.20.30.40'],
};
const auth = basic(key.identifier, key.password);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 50, keys: [key] });
  log = captureLog();
  relay = await startRelay(
    { listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url } } },
    { logDestination: log },
  );
});
afterAll(async () => {
  await relay.close();
  await sandbox.close();
});

describe('relay in front of the sandbox', () => {
  it('walks the fixed-IP flow: refused from the relay address, which appears under Requested IP addresses; approved, the same call works', async () => {
    const refused = await request(`${relay.url}/api/acc/directdata/v1/auditworkflow`, {
      headers: { authorization: auth },
    });
    const refusedBody = await refused.body.text();
    expect(refused.statusCode).toBe(401);
    // The service's own answer passes through; it is not one of the relay's refusals.
    expect(errorCode(refusedBody)).toBeUndefined();
    expect(JSON.parse(refusedBody)).toEqual({ message: expect.stringMatching(/credentials are invalid/) });
    const requested = sandbox.admin.requestedIps().filter((r) => r.identifier === key.identifier);
    expect(requested.map((r) => r.ip)).toEqual(['127.0.0.1']);

    expect(sandbox.admin.approveIp(key.identifier, '127.0.0.1')).toBe(true);
    const ok = await request(`${relay.url}/api/acc/directdata/v1/auditworkflow`, {
      headers: { authorization: auth },
    });
    const records = (await ok.body.json()) as unknown[];
    expect(ok.statusCode).toBe(200);
    expect(records.length).toBeGreaterThan(0);
  });

  it('streams a dataset byte for byte as the sandbox sends it', async () => {
    const direct = await request(`${sandbox.url}/directdata/v3/risk`, { headers: { authorization: auth } });
    const viaRelay = await request(`${relay.url}/api/acc/directdata/v3/risk`, {
      headers: { authorization: auth },
    });
    const [a, b] = await Promise.all([direct.body.arrayBuffer(), viaRelay.body.arrayBuffer()]);
    expect(viaRelay.statusCode).toBe(200);
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
    expect(b.byteLength).toBeGreaterThan(1000);
  });

  it('posts a write and passes the service validation answer back unchanged', async () => {
    const bad = await request(`${relay.url}/api/acc/taskdata/v1/tasks`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: '{}',
    });
    const body = (await bad.body.json()) as { message?: string; errors?: unknown[] };
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect(body.message).toEqual(expect.any(String));
  });

  it('keeps the sandbox credential out of every log line', () => {
    expect(log.lines.length).toBeGreaterThan(2);
    for (const line of log.lines)
      for (const s of [key.identifier, key.password, auth.slice(6)]) expect(line).not.toContain(s);
  });
});
