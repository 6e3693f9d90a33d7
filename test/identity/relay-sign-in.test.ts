/**
 * A relay with sign-in, end to end against the real demo provider: a signed-in person's call goes upstream
 * with the key the relay holds (never the token), the policy decides what each person may read and post,
 * the refusal names the rule and whom to ask, and every access line names the person and the key.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { JWKS_PATH, STATEMENT_ID_HEADER, STATEMENTS_PATH, statementPayload } from '../../src/contracts/evidence';
import { checkStatement } from '../../src/client/statement-check';
import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import { authConfig, me, policyRefusal } from '../../src/contracts/identity';
import { environmentSummaries, environmentView } from '../../src/contracts/environments';
import { AUTH } from '../relay/helpers';
import { CONTACT, leaks, logLine, SENTINEL_BASIC, startSignedInRelay, type SignedInRelay } from './harness';
import { REDIRECT_URI, signIn } from './sign-in';

let provider: DemoProvider;
let r: SignedInRelay;
let riley: string;
let casey: string;

beforeAll(async () => {
  provider = await startDemoProvider({ redirectUris: [REDIRECT_URI] });
  r = await startSignedInRelay(provider);
  riley = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
  casey = (await signIn(provider, 'casey', 'compliance-demo')).access_token;
});
afterAll(async () => {
  await r.close();
  await provider.close();
  expect(leaks([...r.seen, ...r.log.lines])).toEqual([]);
});

test('GET /api/auth/config says where to sign in and that typed keys are still taken', async () => {
  const answer = await r.call('/api/auth/config', null);
  expect(answer.status).toBe(200);
  expect(authConfig.parse(answer.json())).toEqual({
    personalKeys: true,
    signIn: { issuer: provider.issuer, clientId: provider.clientId, scopes: provider.scopes, audience: [provider.audience] },
  });
});

test('a signed-in call goes upstream with the held key, not the token, and the log names person and key', async () => {
  const answer = await r.call('/api/acc/directdata/v3/risk', riley);
  expect(answer.status).toBe(200);
  const sent = r.upstream.requests.at(-1)!;
  expect(sent.url).toBe('/api/directdata/v3/risk');
  expect(sent.headers.authorization).toBe(SENTINEL_BASIC);
  expect(JSON.stringify(sent.headers)).not.toContain(riley.slice(-20));
  const line = r.log.lines.find((l) => l.includes('"route":"risk"'));
  expect(JSON.parse(line!)).toMatchObject({
    person: 'riley',
    personName: 'Riley Reporter',
    key: expect.stringMatching(/^[0-9a-f]{12}$/),
    status: 200,
  });
});

test('a dataset outside the rules is refused with the rule and whom to ask', async () => {
  const sentBefore = r.upstream.requests.length;
  const answer = await r.call('/api/acc/directdata/v1/incidents', riley);
  expect(answer.status).toBe(403);
  expect(answer.headers.get('x-grc-relay-error')).toBe('policy-refused');
  const { error } = policyRefusal.parse(answer.json());
  expect(error.rule).toBe('rule "reporting-readers" (datasets)');
  expect(error.ask).toBe(CONTACT);
  expect(error.message).toContain('incidents');
  expect(r.upstream.requests.length).toBe(sentBefore);
});

test('a write flow: allowed on acc, refused on production without a production rule', async () => {
  const post = (env: string) =>
    r.call(`/api/${env}/taskdata/v1/tasks`, casey, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"Name":"x"}',
    });
  expect((await post('acc')).status).toBe(200);
  const refused = await post('prd');
  expect(refused.status).toBe(403);
  expect(policyRefusal.parse(refused.json()).error.rule).toBe('rule "compliance-writers" (production)');
  const notAWriter = await r.call('/api/acc/taskdata/v1/tasks', riley, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(policyRefusal.parse(notAWriter.json()).error.rule).toBe('rule "reporting-readers" (flows)');
});

test('GET /api/me says who the relay takes the caller for and what the policy allows', async () => {
  const answer = await r.call('/api/me', riley);
  expect(answer.status).toBe(200);
  const body = me.parse(answer.json());
  expect(body).toMatchObject({ subject: 'riley', name: 'Riley Reporter', groups: ['reporting'] });
  expect(body.may.environments).toEqual(['acc', 'prd']);
  expect(body.may.datasets.acc).toEqual(expect.arrayContaining(['risk', 'risiko', 'riskcustomfields']));
  expect(body.may.datasets.acc).not.toContain('incidents');
  expect(body.may.flows.acc).toEqual([]);
  // No write flow: posting is not allowed anywhere (the taskpane offers no post), production or not.
  expect(body.may.production).toEqual({ acc: false, prd: false });
  expect(body.keys.acc).toMatch(/^key:[0-9a-f]{12}$/);
  const caseys = me.parse((await r.call('/api/me', casey)).json());
  expect(caseys.may.datasets.acc).toBe('*');
  expect(caseys.may.flows.acc).toEqual(['incidents', 'task-create']);
  expect(caseys.may.production).toEqual({ acc: true, prd: false });
});

test('/api/me/ and below are a plain 404, not an environment named "me"', async () => {
  for (const path of ['/api/me/', '/api/me/x']) {
    const answer = await r.call(path, riley);
    expect([answer.status, answer.headers.get('x-grc-relay-error')]).toEqual([404, 'not-found']);
  }
});

test('/healthz says the status only: no key fingerprints without healthShowsKeys', async () => {
  const answer = await r.call('/healthz', null);
  expect(answer.json()).toEqual({ status: 'ok' });
});

test('the fingerprint in /api/me is the audit fingerprint of the held key (src/writeback/audit.ts)', async () => {
  const { keyFingerprint } = await import('../../src/client/key-fingerprint');
  const { SENTINEL_IDENTIFIER } = await import('./harness');
  const body = me.parse((await r.call('/api/me', riley)).json());
  expect(body.keys.prd).toBe(await keyFingerprint(SENTINEL_IDENTIFIER));
});

test('GET /api/environments: names and production flags only, with or without a token; a view needs the policy', async () => {
  const signedIn = environmentSummaries.parse((await r.call('/api/environments', riley)).json());
  expect(signedIn).toEqual([
    { name: 'acc', production: false },
    { name: 'prd', production: true },
  ]);
  // Anonymous: what the sign-in page needs, no binding and no server path.
  const anyone = await r.call('/api/environments', null);
  expect(anyone.json()).toEqual(signedIn);
  expect(anyone.body).not.toMatch(/binding|endpoints|\/tmp\//);
  const view = environmentView.parse((await r.call('/api/environments/acc', riley)).json());
  expect(view.name).toBe('acc');
  expect(Object.keys(view.endpoints)).toContain('risk');
  // Typed keys are taken here, so a typed-key user (anonymous to the relay until the service sees the key) gets the view.
  expect((await r.call('/api/environments/acc', null)).status).toBe(200);
});

test('with personal keys off an anonymous caller gets no view; a person gets only their environments', async () => {
  const narrow = await startSignedInRelay(
    provider,
    { personalKeys: false },
    { policy: { contact: CONTACT, rules: [{ name: 'acc-only', groups: ['reporting'], environments: ['acc'], datasets: '*' }] } },
  );
  try {
    const anonymous = await narrow.call('/api/environments/acc', null);
    expect([anonymous.status, anonymous.headers.get('x-grc-relay-error')]).toEqual([401, 'sign-in-required']);
    expect(environmentSummaries.parse((await narrow.call('/api/environments', riley)).json()).map((e) => e.name)).toEqual(['acc']);
    expect((await narrow.call('/api/environments/acc', riley)).status).toBe(200);
    const refused = await narrow.call('/api/environments/prd', riley);
    expect(refused.status).toBe(403);
    expect(policyRefusal.parse(refused.json()).error.ask).toBe(CONTACT);
  } finally {
    await narrow.close();
  }
});

test('a typed key still passes through while personal keys are on', async () => {
  const answer = await r.call('/api/acc/directdata/v3/risk', null, { headers: { authorization: AUTH } });
  expect(answer.status).toBe(200);
  expect(r.upstream.requests.at(-1)!.headers.authorization).toBe(AUTH);
});

test('no credentials at all: sign-in-required', async () => {
  const answer = await r.call('/api/acc/directdata/v3/risk', null);
  expect(answer.status).toBe(401);
  expect(answer.headers.get('x-grc-relay-error')).toBe('sign-in-required');
});

test('with personal keys off a typed key is refused and a signed-in person is served', async () => {
  const off = await startSignedInRelay(provider, { personalKeys: false });
  try {
    const typed = await off.call('/api/acc/directdata/v3/risk', null, { headers: { authorization: AUTH } });
    expect(typed.status).toBe(403);
    expect(typed.headers.get('x-grc-relay-error')).toBe('personal-keys-off');
    expect(off.upstream.requests).toHaveLength(0);
    expect(authConfig.parse((await off.call('/api/auth/config', null)).json()).personalKeys).toBe(false);
    expect((await off.call('/api/acc/directdata/v3/risk', riley)).status).toBe(200);
  } finally {
    await off.close();
  }
});

test("the add-in's pages may call the provider (connect-src names its origins); the sign-in page keeps its opener", async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'relay-pages-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(dir, 'sign-in.html'), '<!doctype html><title>sign in</title>');
  const pages = await startSignedInRelay(provider, { staticDir: dir });
  try {
    const answer = await pages.call('/', null);
    expect(answer.status).toBe(200);
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain(`connect-src 'self' ${provider.issuer};`);
    expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    // Office's dialog opens the sign-in page and hears back through messageParent: no new browsing context group.
    const signInPage = await pages.call('/sign-in.html', null);
    expect(signInPage.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    expect(signInPage.headers.get('content-security-policy')).toBe(csp);
  } finally {
    await pages.close();
  }
});

test('/api/me names only the keys of the environments the person may use', async () => {
  const narrow = await startSignedInRelay(
    provider,
    {},
    {
      policy: {
        contact: CONTACT,
        rules: [{ name: 'acc-only', groups: ['reporting'], environments: ['acc'], datasets: '*' }],
      },
    },
  );
  try {
    const body = me.parse((await narrow.call('/api/me', riley)).json());
    expect(body.may.environments).toEqual(['acc']);
    expect(Object.keys(body.keys)).toEqual(['acc']);
    const refused = await narrow.call('/api/prd/directdata/v3/risk', riley);
    expect(policyRefusal.parse(refused.json()).error.rule).toBe('rule "acc-only" (environments)');
  } finally {
    await narrow.close();
  }
});

test('an issuer configured unlike the provider says so at start, and every token is refused meanwhile', async () => {
  const wrong = await startSignedInRelay(provider, {
    identity: { issuer: `${provider.issuer}/`, audience: provider.audience, clientId: provider.clientId },
  });
  try {
    const warning = wrong.log.lines.find((l) => l.includes('sign-in provider not reachable yet'))!;
    expect(warning).toContain(
      `calls itself \\"${provider.issuer}\\", not \\"${provider.issuer}/\\": set identity.issuer to its exact value`,
    );
    const answer = await wrong.call('/api/acc/directdata/v3/risk', riley);
    expect(answer.status).toBe(401);
    expect((answer.json() as { error: { message: string } }).error.message).toMatch(/calls itself/);
    expect(wrong.upstream.requests).toHaveLength(0);
  } finally {
    await wrong.close();
  }
});

test('a rule naming only a write flow: its reads serve the GUID, name and identifier only, the rest of the dataset and other datasets are refused; start lists the implied reads', async () => {
  const writer = await startSignedInRelay(
    provider,
    {},
    { policy: { contact: CONTACT, rules: [{ name: 'incident-writers', groups: ['reporting'], environments: ['acc'], flows: ['incidents'] }] } },
  );
  const users = [
    { Id: '0f8fad5b-d9cb-469f-a165-70867728950e', Name: 'Ada Lovelace', Email: 'ada@example.test', Deleted: false },
    { Id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', Name: 'Alan Turing', Email: 'alan@example.test', Deleted: true },
  ];
  writer.upstream.handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', location: '/elsewhere' });
    res.end(JSON.stringify(users));
  };
  try {
    const answer = await writer.call('/api/acc/directdata/v1/users', riley);
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual(users.map(({ Email: _e, ...rest }) => rest));
    expect(answer.body).not.toContain('@example.test');
    // Signed as what it is: the service's answer (its hash, length and records) and the projection sent.
    const fetched = await writer.call(`${STATEMENTS_PATH}/${answer.headers.get(STATEMENT_ID_HEADER)}`, riley);
    const jwks = (await (await fetch(writer.relay.url + JWKS_PATH)).json()) as JSONWebKeySet;
    const { payload } = await compactVerify((fetched.json() as { statement: string }).statement, createLocalJWKSet(jwks));
    const served = Buffer.from(JSON.stringify(users));
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(statementPayload.parse(JSON.parse(Buffer.from(payload).toString('utf8')))).toMatchObject({
      kind: 'read',
      dataset: 'users',
      who: { kind: 'person', subject: 'riley' },
      sha256: sha(served),
      length: served.length,
      records: 2,
      projection: { fields: ['Id', 'GUID', 'Guid', 'Identifier', 'Name', 'Deleted', 'Archived'], sha256: sha(Buffer.from(answer.body)), length: Buffer.byteLength(answer.body) },
    });
    // The client's check takes the bytes it received as the signed projection.
    const received = { kind: 'read' as const, dataset: 'users', sha256: sha(Buffer.from(answer.body)), length: Buffer.byteLength(answer.body), records: 2 };
    const conn = { baseUrl: `${writer.relay.url}/api/acc`, authorization: `Bearer ${riley}`, fetch };
    expect(await checkStatement(conn, answer.headers.get(STATEMENT_ID_HEADER), received)).toMatchObject({ ok: true });
    expect(await checkStatement(conn, answer.headers.get(STATEMENT_ID_HEADER), { ...received, sha256: sha(served) })).toMatchObject({ ok: false, code: 'hash-mismatch' });
    // The independent Python verifier (python3-jwt, none of our code) takes either saved answer: the
    // projection the caller got or the service's whole answer; a changed projection is named.
    const dir = mkdtempSync(join(tmpdir(), 'projection-'));
    try {
      const statement = (fetched.json() as { statement: string }).statement;
      const kid = (JSON.parse(Buffer.from(statement.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
      const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
      const args = [file('jwks.json', JSON.stringify(jwks)), file('evidence.json', JSON.stringify({ statement, publicKey: jwks.keys.find((k) => k.kid === kid), dataset: 'users', records: 2 }))];
      const python = (saved: string) => {
        try {
          return { code: 0, found: JSON.parse(execFileSync('/usr/bin/python3', [join(__dirname, '..', 'evidence', 'verify_statement.py'), ...args, file('answer.json', saved)], { stdio: 'pipe' }).toString()) as unknown };
        } catch (e) {
          return { code: (e as { status: number }).status, found: JSON.parse(String((e as { stdout: Buffer }).stdout)) as unknown };
        }
      };
      expect(python(answer.body)).toMatchObject({ code: 0, found: { signature: 'valid', answer: 'projection', problems: [] } });
      expect(python(served.toString())).toMatchObject({ code: 0, found: { signature: 'valid', answer: 'service', problems: [] } });
      expect(python(answer.body.replace('"Name":"', '"Name":"X'))).toMatchObject({ code: 1, found: { problems: ['sha256', 'length'] } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The held key went upstream, as for any call.
    expect(writer.upstream.requests.at(-1)!.headers.authorization).toBe(SENTINEL_BASIC);
    const line = JSON.parse(await logLine(writer.log, /"path":"\/api\/acc\/directdata\/v1\/users"/)) as Record<string, unknown>;
    expect(line).toMatchObject({ implied: 'rule "incident-writers" (flows)', person: 'riley' });
    // A dataset the flow does not read is refused as before; /api/me gives no dataset to load as a table.
    expect((await writer.call('/api/acc/directdata/v3/risk', riley)).status).toBe(403);
    expect(me.parse((await writer.call('/api/me', riley)).json()).may.datasets.acc).toEqual([]);
    // What the rule grants is in the log from the start, implied reads included.
    const grants = JSON.parse(await logLine(writer.log, /what each rule grants/)) as { grants: string[] };
    expect(grants.grants[0]).toContain('users (Id, GUID, Guid, Identifier, Name, Deleted, Archived)');
    // An answer that cannot be cut is not passed on at all.
    writer.upstream.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"not":"a list"}');
    };
    const uncut = await writer.call('/api/acc/directdata/v1/users', riley);
    expect([uncut.status, uncut.headers.get('x-grc-relay-error')]).toEqual([502, 'upstream-failed']);
  } finally {
    await writer.close();
  }
});
