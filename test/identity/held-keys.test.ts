/**
 * Keys on the relay by reference: a 0600 file, an environment variable or a systemd credential; re-read on
 * change and on SIGHUP without a restart; expiry warned in the log and /healthz. Calls are made by a
 * signed-in person of the real demo provider, so the key seen upstream is the one the relay holds.
 */
import { chmodSync, mkdtempSync, renameSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import pino from 'pino';
import { startRelay } from '../../src/relay';
import { CLIENT_ID_VAR, CLIENT_SECRET_FILE_VAR, serviceClientFrom } from '../../src/connect/service-client';
import { HeldKeys, readSecretFile, WINDOWS_ACLS_UNCHECKED } from '../../src/relay/held-keys';
import { SigningKeys } from '../../src/relay/signing-keys';
import {
  leaks,
  logLine,
  SENTINEL_BASIC,
  startSignedInRelay,
  writeSecret,
  type SignedInRelay,
} from './harness';
import { REDIRECT_URI, signIn } from './sign-in';

let provider: DemoProvider;
let token: string;
const basic = (id: string, pw: string) => `Basic ${Buffer.from(`${id}:${pw}`).toString('base64')}`;
const RISK = '/api/acc/directdata/v3/risk';
const opened: SignedInRelay[] = [];

beforeAll(async () => {
  provider = await startDemoProvider({ redirectUris: [REDIRECT_URI] });
  token = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
});
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
  await provider.close();
  expect(leaks(opened.flatMap((r) => [...r.seen, ...r.log.lines]))).toEqual([]);
});

async function relayWith(
  acc: Record<string, unknown>,
  processEnv?: NodeJS.ProcessEnv,
  extra: Record<string, unknown> = {},
) {
  const r = await startSignedInRelay(provider, { healthShowsKeys: true, ...extra }, { processEnv });
  opened.push(r);
  return r;
}

test('a key file: used upstream, re-read when the file is replaced (rename), and on SIGHUP', async () => {
  const r = await relayWith({});
  expect((await r.call(RISK, token)).status).toBe(200);
  expect(r.upstream.requests.at(-1)!.headers.authorization).toBe(SENTINEL_BASIC);
  const before = ((await r.call('/api/me', token)).json() as { keys: { acc: string } }).keys.acc;

  // What an admin's rotation does: write the new key beside the old file, then move it over.
  const next = join(r.dir, 'acc.key.new');
  writeSecret(next, 'rotated-identifier:rotated-password\n');
  renameSync(next, r.keyFile);
  await logLine(r.log, /held key re-read/);
  expect((await r.call(RISK, token)).status).toBe(200);
  expect(r.upstream.requests.at(-1)!.headers.authorization).toBe(
    basic('rotated-identifier', 'rotated-password'),
  );
  const after = ((await r.call('/api/me', token)).json() as { keys: { acc: string } }).keys.acc;
  expect(after).not.toBe(before);

  writeSecret(r.keyFile, 'third-identifier:third-password\n');
  process.emit('SIGHUP');
  expect((await r.call(RISK, token)).status).toBe(200);
  expect(r.upstream.requests.at(-1)!.headers.authorization).toBe(basic('third-identifier', 'third-password'));
});

test('a rotation that cannot be read keeps the key in use, says why in the log and /healthz', async () => {
  const r = await relayWith({});
  chmodSync(r.keyFile, 0o644);
  r.relay.reload();
  const line = await logLine(r.log, /held key not re-read/);
  expect(line).toContain('chmod 600');
  expect((await r.call(RISK, token)).status).toBe(200);
  expect(r.upstream.requests.at(-1)!.headers.authorization).toBe(SENTINEL_BASIC);
  const health = (await r.call('/healthz', null)).json() as {
    status: string;
    keys: Record<string, { status: string; problem?: string }>;
  };
  expect(health.status).toBe('warn');
  expect(health.keys.acc).toMatchObject({ status: 'stale', problem: expect.stringMatching(/chmod 600/) });
  chmodSync(r.keyFile, 0o600);
});

test('an environment variable and a systemd credential', async () => {
  const probe = await relayWith({});
  const upstreamUrl = probe.upstream.url;
  const credentials = probe.dir;
  writeSecret(join(credentials, 'prd-key'), 'PASSWORD-ONLY-in-credential', 0o400);
  const r = await startSignedInRelay(
    provider,
    {
      environments: {
        acc: { baseUrl: `${upstreamUrl}/api`, key: { env: 'GRC_KEY_ACC' } },
        prd: {
          baseUrl: `${upstreamUrl}/api`,
          production: true,
          key: { credential: 'prd-key', identifier: 'prd-identifier' },
        },
      },
    },
    { processEnv: { GRC_KEY_ACC: 'env-identifier:env-password', CREDENTIALS_DIRECTORY: credentials } },
  );
  opened.push(r);
  expect((await r.call(RISK, token)).status).toBe(200);
  expect(probe.upstream.requests.at(-1)!.headers.authorization).toBe(basic('env-identifier', 'env-password'));
  expect((await r.call('/api/prd/directdata/v3/risk', token)).status).toBe(200);
  expect(probe.upstream.requests.at(-1)!.headers.authorization).toBe(
    basic('prd-identifier', 'PASSWORD-ONLY-in-credential'),
  );
});

test('start-up refusals name the reference and the fix, never the content', async () => {
  const probe = await relayWith({});
  const base = {
    listen: { host: '127.0.0.1', port: 0 },
    identity: { issuer: provider.issuer, audience: provider.audience, clientId: provider.clientId },
    policy: probe.policyFile,
  };
  const start = (key: Record<string, unknown>, processEnv: NodeJS.ProcessEnv = {}) =>
    startRelay({ ...base, environments: { acc: { baseUrl: `${probe.upstream.url}/api`, key } } } as never, {
      processEnv,
      logDestination: { write: () => undefined },
    }).then(
      () => 'started',
      (e: Error) => e.message,
    );
  expect(await start({ credential: 'acc' })).toMatch(
    /CREDENTIALS_DIRECTORY is not set.*LoadCredential=acc:/s,
  );
  expect(await start({ env: 'GRC_NOT_SET' })).toMatch(/environment variable GRC_NOT_SET is not set/);
  expect(await start({ file: join(probe.dir, 'missing.key') })).toMatch(/missing.key does not exist/);
  const junk = join(probe.dir, 'junk.key');
  writeSecret(junk, 'SECRET-WITHOUT-COLON-5512\n');
  const junkMessage = await start({ file: junk });
  expect(junkMessage).toMatch(/must hold IDENTIFIER:PASSWORD/);
  expect(junkMessage).not.toContain('SECRET-WITHOUT-COLON');
  expect(await start({ value: 'inline-key' })).toMatch(/environments\.acc\.key/);
  expect(await start({ file: junk, env: 'X' })).toMatch(/exactly one of "file", "env" or "credential"/);
});

test('expiry: warned in the log and /healthz before the date the admin recorded', async () => {
  const probe = await relayWith({});
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const r = await startSignedInRelay(provider, {
    healthShowsKeys: true,
    environments: {
      acc: { baseUrl: `${probe.upstream.url}/api`, key: { file: probe.keyFile, expires: day(10) } },
      prd: {
        baseUrl: `${probe.upstream.url}/api`,
        production: true,
        key: { file: probe.keyFile, expires: day(200) },
      },
    },
  });
  opened.push(r);
  const health = (await r.call('/healthz', null)).json() as {
    status: string;
    keys: Record<string, Record<string, unknown>>;
  };
  expect(health.status).toBe('warn');
  expect(health.keys.acc).toMatchObject({
    status: 'expiring',
    daysLeft: 10,
    expires: day(10),
    fingerprint: expect.stringMatching(/^key:[0-9a-f]{12}$/),
  });
  expect(health.keys.prd).toMatchObject({ status: 'ok', daysLeft: 200 });
  const warning = JSON.parse(await logLine(r.log, /expires on/)) as Record<string, unknown>;
  expect(warning).toMatchObject({ level: 40, env: 'acc', daysLeft: 10 });
  expect(String(warning.msg)).toContain('Yearly rotation');
});

test('a rotation records the new expiry in the key file itself: /healthz follows without a restart', async () => {
  const r = await relayWith({});
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  writeSecret(r.keyFile, `new-identifier:new-password\nexpires=${day(5)}\n`);
  r.relay.reload();
  let health = (await r.call('/healthz', null)).json() as { keys: Record<string, Record<string, unknown>> };
  expect(health.keys.acc).toMatchObject({ expires: day(5), daysLeft: 5, status: 'expiring' });
  writeSecret(r.keyFile, `newer-identifier:newer-password\nexpires=${day(365)}\n`);
  r.relay.reload();
  health = (await r.call('/healthz', null)).json() as { keys: Record<string, Record<string, unknown>> };
  expect(health.keys.acc).toMatchObject({ expires: day(365), daysLeft: 365, status: 'ok' });
  expect((await r.call(RISK, token)).status).toBe(200);
  expect(r.upstream.requests.at(-1)!.headers.authorization).toBe(basic('newer-identifier', 'newer-password'));
  writeSecret(r.keyFile, 'x:y\nexpires soon\n');
  r.relay.reload();
  expect(await logLine(r.log, /second line must be expires=YYYY-MM-DD/)).not.toContain('x:y');
});

test('on Windows (platform stubbed) a key file passes without the mode check, and the log says the NTFS ACLs are not checked', async () => {
  const loose = join(mkdtempSync(join(tmpdir(), 'grc-win-key-')), 'loose.key');
  writeSecret(loose, 'loose-identifier:loose-password\n', 0o644);
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  expect(() => readSecretFile(loose, `file ${loose}`)).toThrow(/mode 644.*chmod 600/);
  const lines: string[] = [];
  try {
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    expect(readSecretFile(loose, `file ${loose}`)).toBe('loose-identifier:loose-password\n');
    const logger = pino({}, { write: (l: string) => lines.push(l) });
    const keys = new HeldKeys({ environments: { acc: { key: { file: loose } }, prd: { key: { env: 'GRC_KEY_PRD' } } } } as never, logger, 30, { GRC_KEY_PRD: 'prd-identifier:prd-password' });
    expect(keys.loadAll()).toEqual([]);
    // The relay's signing key and the CLI's service client secret are read the same way.
    const pem = join(dirname(loose), 'signing.pem');
    writeSecret(pem, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), 0o644);
    expect(new SigningKeys({ key: { file: pem }, previousKeys: [], statementTtlSeconds: 60 } as never, logger).jwks()).toContain('"alg":"EdDSA"');
    expect(serviceClientFrom({ [CLIENT_ID_VAR]: 'scheduler', [CLIENT_SECRET_FILE_VAR]: loose })).toMatchObject({ clientId: 'scheduler', secret: 'loose-identifier:loose-password' });
  } finally {
    Object.defineProperty(process, 'platform', platform);
  }
  const warned = lines.map((l) => JSON.parse(l) as { level: number; msg: string; environments?: string[] }).filter((l) => l.msg.includes('NTFS ACLs are not read'));
  expect(warned).toEqual([expect.objectContaining({ level: 40, msg: `held keys: ${WINDOWS_ACLS_UNCHECKED}`, environments: ['acc'] }), expect.objectContaining({ level: 40, msg: `evidence.key: ${WINDOWS_ACLS_UNCHECKED}` })]);
});
