/**
 * Attacks on the relay's sign-in, each against the real demo provider and a real relay: every forged,
 * misdirected, stale or revoked token is refused with 401 before anything reaches the service, and the
 * held key never shows in an answer or a log line.
 */
import { exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { writeFileSync } from 'node:fs';
import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import { startRelay } from '../../src/relay';
import { leaks, logLine, POLICY, startSignedInRelay, type SignedInRelay } from './harness';
import { claimsOf, REDIRECT_URI, respelt, signIn } from './sign-in';

let provider: DemoProvider;
let r: SignedInRelay;
/** Added to the relay's clock: tokens expire or are not yet valid without waiting. */
let clockOffsetMs = 0;
const seenElsewhere: string[] = [];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (jwt: string) => {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  return { header, payload, signature };
};
const RISK = '/api/acc/directdata/v3/risk';

beforeAll(async () => {
  provider = await startDemoProvider({
    redirectUris: [REDIRECT_URI],
    audiences: ['api://grc-sheets-relay', 'api://another-api'],
  });
  r = await startSignedInRelay(provider, {}, { now: () => Date.now() + clockOffsetMs });
});
afterEach(() => {
  clockOffsetMs = 0;
});
afterAll(async () => {
  await r.close();
  await provider.close();
  expect(leaks([...r.seen, ...r.log.lines, ...seenElsewhere])).toEqual([]);
});

async function refused(token: string, code: string, message?: RegExp) {
  const before = r.upstream.requests.length;
  const answer = await r.call(RISK, token);
  expect(answer.status).toBe(401);
  expect(answer.headers.get('x-grc-relay-error')).toBe(code);
  expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  if (message) expect((answer.json() as { error: { message: string } }).error.message).toMatch(message);
  expect(r.upstream.requests.length).toBe(before);
}

const riley = () => signIn(provider, 'riley', 'reporting-demo').then((t) => t.access_token);

test('the genuine token is served (the attacks below differ from it in one thing each)', async () => {
  expect((await r.call(RISK, await riley())).status).toBe(200);
});

test('a token for another audience', async () => {
  const other = (await signIn(provider, 'riley', 'reporting-demo', { resource: 'api://another-api' }))
    .access_token;
  expect(claimsOf(other).aud).toBe('api://another-api');
  await refused(other, 'token-invalid', /another audience/);
});

test('an expired token (the relay clock past exp plus the skew), even after it was served and cached', async () => {
  const token = await riley();
  expect((await r.call(RISK, token)).status).toBe(200);
  clockOffsetMs = (600 + 61) * 1000;
  await refused(token, 'token-expired', /expired/);
});

test('a token not yet valid (issued in the relay clock future beyond the skew)', async () => {
  const token = await riley();
  clockOffsetMs = -3600 * 1000;
  await refused(token, 'token-invalid', /not valid yet/);
});

test('alg none', async () => {
  const { header, payload } = parts(await riley());
  const none = `${b64({ ...JSON.parse(Buffer.from(header, 'base64url').toString()), alg: 'none' })}.${payload}.`;
  await refused(none, 'token-invalid');
});

test('an HMAC token signed with the provider public key as the secret', async () => {
  const genuine = await riley();
  const jwks = (await (await fetch(`${provider.issuer}/jwks`)).json()) as { keys: JWK[] };
  const jwk = jwks.keys[0]!;
  const pem = await exportSPKI(
    (await importJWK({ ...jwk, alg: 'RS256' }, 'RS256', { extractable: true })) as CryptoKey,
  );
  for (const secret of [pem, JSON.stringify(jwk)]) {
    const forged = await new SignJWT(claimsOf(genuine))
      .setProtectedHeader({ alg: 'HS256', kid: jwk.kid!, typ: 'at+jwt' })
      .sign(new TextEncoder().encode(secret));
    await refused(forged, 'token-invalid', /algorithm/);
  }
});

test('a tampered payload (groups raised, signature kept)', async () => {
  const { header, payload, signature } = parts(await riley());
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const tampered = `${header}.${b64({ ...claims, groups: ['compliance'] })}.${signature}`;
  await refused(tampered, 'token-invalid', /signature does not verify/);
});

test('an unknown kid: the relay fetches the provider keys once more, then refuses', async () => {
  const genuine = await riley();
  const { privateKey } = await generateKeyPair('RS256');
  const forged = await new SignJWT(claimsOf(genuine))
    .setProtectedHeader({ alg: 'RS256', kid: 'attacker-kid' })
    .sign(privateKey);
  // A relay with no refetch cooldown, to count the refetch; the shared relay keeps the 30 s default.
  const eager = await startSignedInRelay(provider, {
    identity: {
      issuer: provider.issuer,
      audience: provider.audience,
      clientId: provider.clientId,
      jwksCooldownSeconds: 0,
    },
  });
  try {
    expect((await eager.call(RISK, genuine)).status).toBe(200);
    const fetched = eager.relay.signInStats!.jwksFetches;
    const answer = await eager.call(RISK, forged);
    expect(answer.status).toBe(401);
    expect((answer.json() as { error: { message: string } }).error.message).toMatch(/unknown kid/);
    expect(eager.relay.signInStats!.jwksFetches).toBe(fetched + 1);
    seenElsewhere.push(...eager.seen, ...eager.log.lines);
  } finally {
    await eager.close();
  }
  // Within the cooldown a flood of unknown kids costs the provider nothing more.
  const before = r.relay.signInStats!.jwksFetches;
  for (let i = 0; i < 5; i++) await refused(forged, 'token-invalid', /unknown kid/);
  expect(r.relay.signInStats!.jwksFetches).toBe(before);
});

test('a token from another issuer (a second real provider)', async () => {
  const stranger = await startDemoProvider({ redirectUris: [REDIRECT_URI] });
  try {
    const foreign = (await signIn(stranger, 'riley', 'reporting-demo')).access_token;
    expect(claimsOf(foreign)).toMatchObject({
      sub: 'riley',
      aud: 'api://grc-sheets-relay',
      iss: stranger.issuer,
    });
    await refused(foreign, 'token-invalid');
  } finally {
    await stranger.close();
  }
});

test('a token used after sign-out', async () => {
  const token = await riley();
  const other = await riley();
  expect((await r.call(RISK, token)).status).toBe(200);
  const out = await r.call('/api/auth/sign-out', token, { method: 'POST' });
  expect(out.status).toBe(204);
  await refused(token, 'signed-out');
  expect((await r.call('/api/me', token)).status).toBe(401);
  // Only that sign-in ended: another session of the same person goes on.
  expect((await r.call(RISK, other)).status).toBe(200);
});

test('another spelling of a token is refused, before and after sign-out, and a sign-out covers every spelling', async () => {
  const token = await riley();
  const { lastCharacter, padded } = respelt(token);
  // Same decoded bytes as the genuine token, so a lenient decoder would verify them: refused for their spelling.
  for (const variant of [lastCharacter, padded]) await refused(variant, 'token-invalid', /not spelt as the provider issues/);
  // Padding inside the token is not even token68 (the Authorization syntax): no token at all.
  const before = r.upstream.requests.length;
  const payloadPadded = await r.call(RISK, token.replace('.', '=.'));
  expect([payloadPadded.status, payloadPadded.headers.get('x-grc-relay-error')]).toEqual([401, 'sign-in-required']);
  expect(r.upstream.requests.length).toBe(before);
  expect((await r.call(RISK, token)).status).toBe(200);
  // Signing out with a non-canonical spelling is refused (it is no token); the genuine one still works.
  expect((await r.call('/api/auth/sign-out', padded, { method: 'POST' })).status).toBe(401);
  expect((await r.call(RISK, token)).status).toBe(200);
  expect((await r.call('/api/auth/sign-out', token, { method: 'POST' })).status).toBe(204);
  for (const variant of [token, lastCharacter, padded]) expect((await r.call(RISK, variant)).status).toBe(401);
  await refused(token, 'signed-out');
});

test('a group removed from the policy while the session lives: the next call is refused', async () => {
  const token = await riley();
  expect((await r.call(RISK, token)).status).toBe(200);
  writeFileSync(
    r.policyFile,
    JSON.stringify({ ...POLICY, rules: POLICY.rules.filter((x) => x.name !== 'reporting-readers') }),
  );
  await logLine(r.log, /policy reloaded/);
  const answer = await r.call(RISK, token);
  expect(answer.status).toBe(403);
  expect(answer.json()).toMatchObject({
    error: { code: 'policy-refused', rule: 'no rule for groups reporting' },
  });
  writeFileSync(r.policyFile, JSON.stringify(POLICY));
  process.emit('SIGHUP');
  expect((await r.call(RISK, token)).status).toBe(200);
});

test('the sentinel key never shows in a start-up refusal either', async () => {
  const { chmodSync } = await import('node:fs');
  chmodSync(r.keyFile, 0o644);
  try {
    const failure = (await startRelay(
      {
        listen: { host: '127.0.0.1', port: 0 },
        environments: { acc: { baseUrl: 'http://127.0.0.1:9/api', key: { file: r.keyFile } } },
        identity: { issuer: provider.issuer, audience: provider.audience, clientId: provider.clientId },
        policy: r.policyFile,
      },
      { logDestination: { write: (s: string) => void seenElsewhere.push(s) } },
    ).catch((e: unknown) => e)) as Error;
    expect(failure.message).toMatch(/can be read by group or others \(mode 644\).*chmod 600/s);
    seenElsewhere.push(failure.message);
  } finally {
    chmodSync(r.keyFile, 0o600);
  }
});
