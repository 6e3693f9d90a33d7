/**
 * Sign-in in preview mode, in headless Chromium, against a real OpenID provider on loopback (the demo
 * provider: oidc-provider), the relay holding the sandboxes' keys with the demo policy of
 * `grc-sheets start --sign-in` (reporting: risks on ACC and PRD; compliance: incidents on ACC, posting),
 * and personal keys off. People sign in through the provider's own login page in the popup; nobody types
 * an API key. Screenshots land in test/e2e/screenshots/ (signin-*).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startSignInDemo, type SignInDemo } from '../../src/cli/start-sign-in';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { bindPaths } from '../catalog/bind-paths';
import { launchBrowser, pasteRowsByName, requireDist, screenshot, type TestBrowser } from './harness';

let acc: Sandbox;
let prd: Sandbox;
let demo: SignInDemo;
let relay: Relay;
let browser: TestBrowser;
let page: Page;
let bindingDir: string;

beforeAll(async () => {
  const staticDir = requireDist();
  // Bound as a Swagger file matching the catalogue would bind them: the incident flow posts without the
  // confirmation an assumed path asks for.
  const common = { host: '127.0.0.1', port: 0, scale: 50, seed: 7, binding: bindPaths() };
  acc = await startSandbox({ ...common, environment: 'ACC' });
  prd = await startSandbox({ ...common, environment: 'PRD' });
  bindingDir = mkdtempSync(join(tmpdir(), 'grc-sheets-signin-'));
  writeFileSync(join(bindingDir, 'binding.json'), JSON.stringify(bindPaths()));
  demo = await startSignInDemo({ 'sandbox-acc': acc.demoKey, 'sandbox-prd': prd.demoKey });
  relay = await startRelay({
    listen: { host: '127.0.0.1', port: 0 },
    environments: {
      'sandbox-acc': { baseUrl: acc.url, production: false, binding: join(bindingDir, 'binding.json'), key: demo.keyFile('sandbox-acc') },
      'sandbox-prd': { baseUrl: prd.url, production: true, binding: join(bindingDir, 'binding.json'), key: demo.keyFile('sandbox-prd') },
    },
    ...demo.relayConfig,
    staticDir,
    logLevel: 'silent',
  });
  await demo.allowOrigin(relay.url);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(`${relay.url}/taskpane.html`);
  await page.getByTestId('sign-in').waitFor();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await relay?.close();
  await Promise.all([acc?.close(), prd?.close(), demo?.close()]);
  if (bindingDir) rmSync(bindingDir, { recursive: true, force: true });
});

/** Presses Sign in, fills the provider's login page in the popup, and waits for the pane to say who is in. */
async function signIn(login: string, password: string, shot?: string): Promise<void> {
  await page.getByRole('tab', { name: 'Connect' }).click();
  const [popup] = await Promise.all([browser.context.waitForEvent('page'), page.getByTestId('sign-in').click()]);
  await popup.locator('#login').waitFor();
  expect(new URL(popup.url()).origin).toBe(demo.provider.issuer);
  await popup.locator('#login').fill(login);
  await popup.locator('#password').fill(password);
  if (shot) await screenshot(popup, shot);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in').waitFor();
  await page.getByTestId('connect-ok').waitFor();
  // The sign-in page closes its window once it handed the answer over.
  if (!popup.isClosed()) await popup.waitForEvent('close');
}

async function signOut(): Promise<void> {
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-in').waitFor();
}

test('the Connect tab offers sign-in only: this relay takes no typed key', async () => {
  expect(await page.getByTestId('identifier').count()).toBe(0);
  expect(await page.getByTestId('taskpane').innerText()).toContain(`(${new URL(demo.provider.issuer).host})`);
  await screenshot(page, 'signin-01-connect');
});

test('Cancel while the sign-in window is open leaves the pane as it was, with no error', async () => {
  const [popup] = await Promise.all([browser.context.waitForEvent('page'), page.getByTestId('sign-in').click()]);
  await page.getByTestId('sign-in-waiting').waitFor();
  await screenshot(page, 'signin-01b-waiting');
  await page.getByTestId('sign-in-cancel').click();
  await page.getByTestId('sign-in').waitFor();
  expect(await page.getByTestId('sign-in-error').count()).toBe(0);
  // The pane closes the window where the browser still lets it; one the provider's pages cut off from
  // the pane (Chromium does here) the person closes.
  if (!popup.isClosed()) await popup.close();
});

test('Riley signs in on the provider\'s login page and sees only what the reporting rule gives: risks', async () => {
  await signIn('riley', 'reporting-demo', 'signin-02-provider-login');
  expect(await page.getByTestId('signed-in').innerText()).toContain('Signed in as Riley Reporter');
  expect(await page.getByTestId('env-badge').innerText()).toBe('sandbox-acc');
  // Both environments of the rule are offered; production is marked read-only for a reader.
  const options = await page.getByTestId('environment').locator('option').allInnerTexts();
  expect(options).toEqual(['sandbox-acc', 'sandbox-prd (PRODUCTION, read only)']);
  expect(await page.getByTestId('connect-ok').innerText()).toMatch(/as Riley Reporter[\s\S]*key:[0-9a-f]{12}/);
  await screenshot(page, 'signin-03-signed-in');

  await page.getByRole('tab', { name: 'Datasets' }).click();
  // The Datasets screen is a chunk fetched when its tab is first opened.
  await page.getByTestId('datasets-hidden').waitFor();
  expect(await page.locator('[data-testid^="dataset-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(['dataset-risk']);
  expect(await page.getByTestId('datasets-hidden').innerText()).toMatch(/datasets are not listed: the relay's policy does not give your groups them/);
  await page.getByTestId('dataset-risk').click();
  await page.getByTestId('load').click();
  await page.getByTestId('load-done').waitFor();
  expect(await page.getByTestId('load-done').innerText()).toMatch(/Loaded 50 rows/);
  await screenshot(page, 'signin-04-risks-loaded');
});

test('Riley, whom the policy lets post no flow, gets no New template to press, and is told so in words of posting', async () => {
  await page.getByTestId('taskpane').getByRole('tab', { name: 'Write-back', exact: true }).click();
  await page.getByTestId('wb-flow').waitFor();
  for (const flow of await page.getByTestId('wb-flow').locator('option').allInnerTexts()) expect(flow).toContain('(not allowed for you)');
  expect(await page.getByTestId('wb-new-template').isDisabled()).toBe(true);
  const said = await page.getByTestId('wb-not-allowed').innerText();
  expect(said).toContain("The relay's policy lets you post none of these flows to sandbox-acc");
  expect(said).not.toMatch(/read|list/);
  for (const width of [350, 1280]) {
    await page.setViewportSize({ width, height: 640 });
    await screenshot(page, `signin-riley-writeback-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('after sign-out the provider asks who is there; Casey (compliance) is refused the risks table by the policy, by rule and contact', async () => {
  await signOut();
  expect(await page.getByTestId('env-badge').innerText()).toBe('Not connected');
  await screenshot(page, 'signin-05-signed-out');
  await signIn('casey', 'compliance-demo');
  expect(await page.getByTestId('signed-in').innerText()).toContain('Signed in as Casey Compliance');
  expect(await page.getByTestId('environment').locator('option').allInnerTexts()).toEqual(['sandbox-acc']);
  // Riley's pick of risks on the Datasets tab does not carry over to Casey, who may not have them.
  await page.getByRole('tab', { name: 'Datasets' }).click();
  expect(await page.getByTestId('dataset-risk').count()).toBe(0);
  expect(await page.getByTestId('load').count()).toBe(0);

  // The risks table Riley loaded is in the workbook; refreshing it as Casey goes to the relay, which refuses.
  await page.getByRole('tab', { name: 'Tables' }).click();
  const card = page.locator('[data-testid^="table-"]', { hasText: 'risk' }).first();
  await card.getByTestId('refresh').click();
  const refused = card.getByTestId('refresh-error');
  await refused.waitFor();
  const text = await refused.innerText();
  expect(text).toContain('Not allowed for you');
  expect(text).toMatch(/rule "compliance"/);
  expect(text).toContain('grc-team@example.com');
  // A plain sentence, said once; the relay's code and status for a support ticket behind Details.
  expect(text).not.toContain('(policy-refused');
  expect(text.match(/still holds/g)).toHaveLength(1);
  await refused.getByText('Details', { exact: true }).click();
  expect(await refused.getByTestId('refresh-error-details').innerText()).toContain('relay code policy-refused, status 403');
  await screenshot(page, 'signin-06-refused');
});

test('Casey posts an incident; the audit row names her beside the key, and says the service records the key\'s owner', async () => {
  await page.getByTestId('taskpane').getByRole('tab', { name: 'Write-back', exact: true }).click();
  // The flows the compliance rule does not give are marked before a template is made (the screen is a
  // chunk fetched when its tab is first opened).
  await page.getByTestId('wb-flow').waitFor();
  const flows = await page.getByTestId('wb-flow').locator('option').allInnerTexts();
  expect(flows.find((f) => f.startsWith('Incidents'))).not.toContain('not allowed for you');
  expect(flows.filter((f) => f.includes('(not allowed for you)')).length).toBe(flows.length - 1);
  await page.getByTestId('wb-flow').selectOption('incidents');
  await page.getByTestId('wb-new-template').click();
  await page.getByTestId('template-done').waitFor();
  await pasteRowsByName(page, 'A2', [
    ['Name', 'Reporting organization', 'Classification'],
    ['Badge reader down at the depot', 'Finance', 'Medium'],
  ]);
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('post-done').innerText()).toContain('1 created');
  expect(acc.store.addedRecords('incidents').map((r) => r.Name)).toContain('Badge reader down at the depot');

  await page.getByTestId('sheet-Write-back audit').click();
  const audit = await page.getByTestId('preview-grid').innerText();
  for (const expected of ['Who', 'Person ID', 'Key fingerprint', 'The service records', 'Casey Compliance', 'casey', "the key's owner, not the person"])
    expect(audit).toContain(expected);
  expect(audit).toMatch(/key:[0-9a-f]{12}/);
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid="preview-grid"] *'))
      if (el.scrollWidth > el.clientWidth + 10) el.scrollLeft = el.scrollWidth;
  });
  await screenshot(page, 'signin-07-audit');
});

test('no API key is in the page or the workbook (every table, the add-in settings), and no token in browser storage', async () => {
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  const workbook = await page.evaluate(async () => {
    const wb = (window as unknown as { __grcPreviewWorkbook: import('../../src/workbook/port').WorkbookPort }).__grcPreviewWorkbook;
    const tables = await Promise.all((await wb.listTables()).map((t) => wb.readRows(t.name)));
    const settings = await Promise.all(['grc-sheets.bindings', 'grc-sheets.writeback.marks', 'grc-sheets.writeback.tables'].map((k) => wb.getSetting(k)));
    return JSON.stringify({ tables, settings });
  });
  expect(workbook).toContain('Casey Compliance');
  // Tokens live in the pane's memory only: nothing in the page's storage, and no JWT in the workbook.
  const stored = await page.evaluate(async () => ({
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    databases: (await indexedDB.databases()).map((d) => d.name),
  }));
  expect(stored).toEqual({ local: '{}', session: '{}', databases: [] });
  // The relay's signed statements (docs/evidence.md) are JWS too, kept on purpose: they are no token.
  const statement = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()).typ === 'grc-sheets-statement+jwt';
  expect(workbook.replace(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, (jws) => (statement(jws) ? '' : jws))).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  for (const key of [acc.demoKey!, prd.demoKey!])
    for (const text of [html, workbook]) {
      expect(text).not.toContain(key.password);
      expect(text).not.toContain(key.identifier);
    }
});

test('at 320 px, light and dark, the signed-in Connect and Datasets tabs read well', async () => {
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.setViewportSize({ width: 320, height: 640 });
  await screenshot(page, 'signin-08-narrow');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('tab', { name: 'Datasets' }).click();
  await screenshot(page, 'signin-09-narrow-dark-datasets');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
});
