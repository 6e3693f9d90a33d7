/**
 * The policy file: every wrong entry gets its own line at start, a bad reload keeps the policy in force,
 * and each person's calls count against their own rate limit and in-flight cap (besides the address's).
 */
import { writeFileSync } from 'node:fs';
import { createCatalog } from '../../src/catalog';
import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import { Policy } from '../../src/identity/policy';
import { policyVocabulary } from '../../src/relay/policy-file';
import { leaks, logLine, POLICY, startSignedInRelay, type SignedInRelay } from './harness';
import { REDIRECT_URI, signIn } from './sign-in';

const vocabulary = policyVocabulary(
  new Map([
    ['acc', false],
    ['prd', true],
  ]),
  [createCatalog()],
);
const RISK = '/api/acc/directdata/v3/risk';

describe('validation', () => {
  test('one line per wrong entry, each naming the rule, the field and what is right', () => {
    const wrong = {
      contact: 'GRC team',
      rules: [
        {
          name: 'a',
          groups: ['g'],
          environments: ['acc', 'prod'],
          datasets: ['risks', 'area:Riskz', 'incidents'],
          flows: ['incident'],
        },
        { name: 'a', groups: ['h'], environments: ['acc'], production: true },
      ],
    };
    let message = '';
    try {
      Policy.parse(wrong, vocabulary, 'policy.json');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'invalid policy in policy.json:',
      '  rules.0 ("a").environments.1: "prod" is not an environment of this relay (acc, prd)',
      '  rules.0 ("a").datasets.0: "risks" is no dataset id of the catalogue; did you mean "risk"? (an area is written area:Risks)',
      expect.stringMatching(
        /^ {2}rules\.0 \("a"\)\.datasets\.1: "area:Riskz" names no area \(area:Risks, .*area:Incidents.*\)$/,
      ),
      expect.stringMatching(
        /^ {2}rules\.0 \("a"\)\.flows\.0: "incident" is neither a write-back flow \(incidents, thirdparties, contracts, tasks\) nor a write operation id; did you mean "incidents"\?$/,
      ),
      '  rules.1 ("a").name: another rule has this name; names tell refusals apart',
      '  rules.1 ("a").production: true, but none of its environments is a production one; give it the production environment or drop the flag',
    ]);
  });

  test('shape errors are named by their path; a missing contact is one of them', () => {
    expect(() =>
      Policy.parse({ rules: [{ name: 'x', groups: [], environments: 'all' }] }, vocabulary),
    ).toThrow(/contact:.*\n.*rules\.0\.groups:.*\n.*rules\.0\.environments:/s);
  });

  test('a flow brings only the fields of the datasets it reads (least privilege); the grants list them; a rule contact overrides the policy contact', () => {
    const policy = Policy.parse(
      {
        contact: 'team',
        rules: [
          {
            name: 'w',
            groups: ['w'],
            environments: '*',
            datasets: [],
            flows: ['incidents'],
            contact: 'incident desk',
          },
        ],
      },
      vocabulary,
    );
    const may = policy.may(['w'], new Set(['acc', 'prd']));
    // Nothing to load as a table: the flow's reads are implied, not given.
    expect(may.datasets.acc).toEqual([]);
    const users = policy.decide(['w'], 'acc', { kind: 'dataset', id: 'users', title: 'Users' });
    expect(users).toEqual({ implied: ['Id', 'GUID', 'Guid', 'Identifier', 'Name', 'Deleted', 'Archived'], rule: 'rule "w" (flows)' });
    expect(users).not.toHaveProperty('implied', expect.arrayContaining(['Email']));
    expect(policy.decide(['w'], 'acc', { kind: 'dataset', id: 'incidents', title: 'Incidents' })).toMatchObject({
      implied: expect.arrayContaining(['Name', 'ReportingOrganization', 'DateRegistered']),
    });
    // Custom field definitions are read whole: the columns and checks are made of them.
    expect(policy.decide(['w'], 'acc', { kind: 'dataset', id: 'incidenttypecustomfields', title: 'x' })).toBeNull();
    const [grant] = policy.grants();
    expect(grant).toMatch(/^rule "w" \(groups w\); environments: all; datasets: none; flows: incidents \(operations incident-create, incident-hyperlink\); implied reads: .*; production posting: no$/);
    expect(grant).toContain('users (Id, GUID, Guid, Identifier, Name, Deleted, Archived)');
    expect(grant).toContain('incidenttypecustomfields (whole records)');
    expect(policy.decide(['w'], 'acc', { kind: 'dataset', id: 'risk', title: 'Risks' })).toEqual({
      rule: 'rule "w" (datasets)',
      ask: 'incident desk',
      message: 'Your rules do not let you read "Risks" (risk) on acc.',
    });
    expect(
      policy.decide(['w'], 'acc', { kind: 'operation', id: 'incident-hyperlink', title: 'Add a hyperlink' }),
    ).toBeNull();
  });

  test("each flow's implied fields are its own (its description's fieldsRead); two flows of one rule get both", () => {
    const rule = (flows: string[]) => Policy.parse({ contact: 'team', rules: [{ name: 'w', groups: ['w'], environments: '*', flows }] }, vocabulary);
    const thirdparty = { kind: 'dataset', id: 'thirdparty', title: 'Third parties' } as const;
    const identity = ['Id', 'GUID', 'Guid', 'Identifier', 'Name', 'Deleted', 'Archived'];
    // Contracts look third parties up by name only; the third party flow matches its own on LEI and creation date.
    expect(rule(['contracts']).decide(['w'], 'acc', thirdparty)).toMatchObject({ implied: identity });
    expect(rule(['thirdparties']).decide(['w'], 'acc', thirdparty)).toMatchObject({ implied: [...identity, 'LeiCode', 'DateCreated'] });
    expect(rule(['contracts', 'thirdparties']).decide(['w'], 'acc', thirdparty)).toMatchObject({ implied: [...identity, 'LeiCode', 'DateCreated'] });
    expect(rule(['tasks', 'incidents']).decide(['w'], 'acc', { kind: 'dataset', id: 'tasks', title: 'Tasks' })).toBeNull();
  });
});

test('the rules that allow a call, by name (the relay signs them): each rule giving it, else those whose flows imply it; production writes only from rules with production', () => {
  const policy = Policy.parse(
    {
      contact: 'team',
      rules: [
        { name: 'risk-readers', groups: ['a'], environments: '*', datasets: ['area:Risks'] },
        { name: 'everything', groups: ['b'], environments: ['acc'], datasets: '*', flows: '*' },
        { name: 'incident-writers', groups: ['a'], environments: '*', flows: ['incidents'] },
        { name: 'prd-posters', groups: ['b'], environments: ['prd'], flows: ['incidents'], production: true },
      ],
    },
    vocabulary,
  );
  const dataset = (id: string) => ({ kind: 'dataset', id }) as const;
  const operation = { kind: 'operation', id: 'incident-create' } as const;
  expect(policy.allowedBy(['a', 'b'], 'acc', dataset('risk'))).toEqual(['risk-readers', 'everything']);
  expect(policy.allowedBy(['a'], 'prd', dataset('risk'))).toEqual(['risk-readers']);
  // Implied by a flow, named only when no rule gives the dataset itself.
  expect(policy.allowedBy(['a'], 'acc', dataset('users'))).toEqual(['incident-writers']);
  expect(policy.allowedBy(['a', 'b'], 'acc', dataset('users'))).toEqual(['everything']);
  expect(policy.allowedBy(['a', 'b'], 'acc', operation)).toEqual(['everything', 'incident-writers']);
  expect(policy.allowedBy(['a', 'b'], 'prd', operation)).toEqual(['prd-posters']);
  expect(policy.allowedBy(['a'], 'prd', operation)).toEqual([]);
  expect(policy.allowedBy(['c'], 'acc', dataset('risk'))).toEqual([]);
});

test('a token without groups (Entra ID overage) is refused with what the admin can do about it', () => {
  const policy = Policy.parse(
    { contact: 'team', rules: [{ name: 'r', groups: ['g'], environments: '*', datasets: '*' }] },
    vocabulary,
  );
  const dataset = { kind: 'dataset', id: 'risk', title: 'Risks' } as const;
  expect(policy.decide([], 'acc', dataset, true)).toMatchObject({
    rule: 'no rule for a token without groups',
    ask: 'team',
    message: expect.stringMatching(/too many.*app roles/),
  });
  expect(policy.decide([], 'acc', dataset)).toHaveProperty('message',
    "No rule of the relay's policy is for your groups.",
  );
  expect(policy.may([], new Set(['acc']))).toEqual({
    environments: [],
    datasets: {},
    flows: {},
    production: {},
  });
});

describe('at the relay', () => {
  let provider: DemoProvider;
  const opened: SignedInRelay[] = [];
  beforeAll(async () => {
    provider = await startDemoProvider({ redirectUris: [REDIRECT_URI] });
  });
  afterAll(async () => {
    await Promise.all(opened.map((r) => r.close()));
    await provider.close();
    expect(leaks(opened.flatMap((r) => [...r.seen, ...r.log.lines]))).toEqual([]);
  });
  const relay = async (extra: Record<string, unknown> = {}) => {
    const r = await startSignedInRelay(provider, extra);
    opened.push(r);
    return r;
  };

  test('a wrong policy stops the relay at start with its lines', async () => {
    await expect(relay()).resolves.toBeDefined();
    const { mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'policy-')), 'policy.json');
    writeFileSync(
      file,
      JSON.stringify({ contact: 'x', rules: [{ name: 'r', groups: ['g'], environments: ['nope'] }] }),
    );
    await expect(relay({ policy: file })).rejects.toThrow(
      /environments\.0: "nope" is not an environment of this relay/,
    );
  });

  test('a bad reload keeps the policy in force and logs why', async () => {
    const r = await relay();
    const token = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
    writeFileSync(
      r.policyFile,
      JSON.stringify({ ...POLICY, rules: [{ ...POLICY.rules[0], datasets: ['riskz'] }] }),
    );
    r.relay.reload();
    const line = await logLine(r.log, /policy not reloaded/);
    expect(line).toContain('\\"riskz\\" is no dataset id');
    expect((await r.call(RISK, token)).status).toBe(200);
    writeFileSync(r.policyFile, '{ not json');
    r.relay.reload();
    await logLine(r.log, /policy not reloaded.*not valid JSON/);
    expect((await r.call(RISK, token)).status).toBe(200);
  });

  test('the rate limit counts per person: one person is held back, another goes on', async () => {
    const r = await relay({ limits: { rateLimitPerPerson: { requests: 3, windowMs: 60_000 } } });
    const riley = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
    const casey = (await signIn(provider, 'casey', 'compliance-demo')).access_token;
    for (let i = 0; i < 3; i++) expect((await r.call(RISK, riley)).status).toBe(200);
    const held = await r.call(RISK, riley);
    expect(held.status).toBe(429);
    expect(held.headers.get('x-grc-relay-error')).toBe('person-rate-limited');
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    // A second sign-in of the same person shares the bucket: it is the person's, not the token's.
    const again = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
    expect((await r.call(RISK, again)).status).toBe(429);
    expect((await r.call(RISK, casey)).status).toBe(200);
  });

  test('calls in flight are capped per person', async () => {
    const r = await relay({ limits: { callsInFlightPerPerson: 1 } });
    const riley = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
    const casey = (await signIn(provider, 'casey', 'compliance-demo')).access_token;
    const held: (() => void)[] = [];
    r.upstream.handler = (_req, res) => held.push(() => res.end('[]'));
    const first = r.call(RISK, riley);
    await r.upstream.nextRequest();
    const second = await r.call(RISK, riley);
    expect(second.status).toBe(429);
    expect(second.headers.get('x-grc-relay-error')).toBe('person-too-many-in-flight');
    const other = r.call(RISK, casey);
    await r.upstream.nextRequest();
    held.splice(0).forEach((f) => f());
    expect((await first).status).toBe(200);
    expect((await other).status).toBe(200);
    r.upstream.handler = (_req, res) => res.end('[]');
    expect((await r.call(RISK, riley)).status).toBe(200);
  });
});
