import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import { createClient } from '../../src/client';
import { loadDataset } from '../../src/loading/load';
import { bearerFetch } from '../../src/client/bearer-fetch';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { CONTACT, startSignedInRelay, type SignedInRelay } from '../identity/harness';
import { REDIRECT_URI, signIn } from '../identity/sign-in';

/**
 * The relay's policy applies to each dataset a register reads: a person whose rules give the Risks area
 * only (riley, rule reporting-readers) is refused the risk register because it reads the controls (for
 * their identifiers), and the refusal names that dataset, the rule and whom to ask; nothing is loaded.
 */
let provider: DemoProvider;
let r: SignedInRelay;
beforeAll(async () => {
  provider = await startDemoProvider({ redirectUris: [REDIRECT_URI] });
  r = await startSignedInRelay(provider);
});
afterAll(async () => {
  await r.close();
  await provider.close();
});

test('a register one of whose datasets the policy does not give the person is refused, naming that dataset', async () => {
  const token = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
  const keeper = { accessToken: async () => token, signOut: async () => undefined };
  const client = createClient({ baseUrl: `${r.relay.url}/api/acc`, credentials: { identifier: 'signed-in', password: 'signed-in' }, fetch: bearerFetch(fetch, keeper) });
  const workbook = createMemoryWorkbook();
  const out = await loadDataset({ client, workbook, datasetId: 'register:risks', environment: 'acc', target: { kind: 'new-sheet' } });
  // The client's code for a refusal by the relay itself (the service never saw the call).
  expect(out).toMatchObject({ ok: false, error: { code: 'api', apiCode: 'relay' } });
  if (out.ok) return;
  expect(out.error.message).toMatch(/^The Risk register reads the dataset Controls \(control\), and reading it failed: /);
  expect(out.error.message).toContain('reporting-readers');
  expect(out.error.message).toContain(CONTACT);
  expect(await workbook.listTables()).toEqual([]);
  // The definitions were read first (for the columns); the controls never reached the service.
  const forwarded = r.upstream.requests.map((q) => q.url);
  expect(forwarded[0]).toBe('/api/directdata/v3/riskcustomfieldvalues');
  expect(forwarded.filter((u) => !['/api/directdata/v3/riskcustomfields', '/api/directdata/v3/riskrootcausecategory'].includes(u))).toEqual(['/api/directdata/v3/riskcustomfieldvalues']);
});
