/**
 * Browser-test harness, shared by every test/e2e suite: a real ACC and PRD sandbox, the relay in front of
 * both serving the built add-in (dist/) on one loopback origin, and headless Debian Chromium driven by
 * playwright-core, on a fresh profile, with every request off loopback refused. Screenshots go to test/e2e/screenshots/ (ignored by git).
 *
 *   stackForFile({ connectTo: 'sandbox-acc' }, (s) => ({ stack, browser, page } = s)); // all of the below, per file
 *
 *   const stack = await startStack();            // sandboxes + relay on port 0
 *   const browser = await launchBrowser();
 *   const page = await openPreview(browser, stack); // taskpane.html in preview mode, environments loaded
 *   await connect(page, 'sandbox-acc', stack.acc.demoKey!);
 *   await screenshot(page, 'connect');
 *   await browser.close(); await stack.close();
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Binding } from '../../src/catalog/binding';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy';

export const DIST = join(__dirname, '..', '..', 'dist');
export const SCREENSHOTS = join(__dirname, 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The tests drive the built add-in; say how to build it rather than failing on a 404. */
export function requireDist(): string {
  if (!existsSync(join(DIST, 'taskpane.html'))) {
    throw new Error(`The browser tests need the built add-in, and ${DIST}/taskpane.html is missing. Run "npm run build" first (npm test does).`);
  }
  return DIST;
}

export interface Stack {
  /** The relay's origin, e.g. http://127.0.0.1:41234: the add-in and the API in one place. */
  url: string;
  previewUrl: string;
  acc: Sandbox;
  prd: Sandbox;
  relay: Relay;
  /** With `recordAcc`: the proxy between the relay and the ACC sandbox, and every request it saw. */
  accProxy?: RecordingProxy;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Risks per sandbox (other datasets proportional); small by default so tests stay fast. */
  scale?: number;
  seed?: number;
  /** A binding per environment: its sandbox is shaped by it and the relay is given it as a file. */
  bindings?: { acc?: Binding; prd?: Binding };
  /** The API file each binding was imported from: its sandbox checks bodies against the file's own schemas. */
  apiFiles?: { acc?: string; prd?: string };
  /** A recording proxy between the relay and the ACC sandbox: what went over the wire, byte for byte. */
  recordAcc?: boolean;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const staticDir = requireDist();
  const common = { host: '127.0.0.1', port: 0, scale: options.scale ?? 200, seed: options.seed ?? 7 };
  const { acc: accBinding, prd: prdBinding } = options.bindings ?? {};
  const apiFile = (file: string | undefined) => (file ? { apiFile: file } : {});
  const acc = await startSandbox({ ...common, environment: 'ACC', ...(accBinding ? { binding: accBinding } : {}), ...apiFile(options.apiFiles?.acc) });
  const prd = await startSandbox({ ...common, environment: 'PRD', ...(prdBinding ? { binding: prdBinding } : {}), ...apiFile(options.apiFiles?.prd) });
  const bindingDir = options.bindings ? mkdtempSync(join(tmpdir(), 'grc-sheets-bindings-')) : null;
  const bindingFile = (name: string, b: Binding | undefined) => {
    if (!b || !bindingDir) return {};
    const file = join(bindingDir, `${name}.json`);
    writeFileSync(file, JSON.stringify(b));
    return { binding: file };
  };
  const accProxy = options.recordAcc ? await startRecordingProxy(acc.url) : undefined;
  const relay = await startRelay({
    listen: { host: '127.0.0.1', port: 0 },
    environments: {
      'sandbox-acc': { baseUrl: accProxy ? `${accProxy.url}${new URL(acc.url).pathname}` : acc.url, production: false, ...bindingFile('acc', accBinding) },
      'sandbox-prd': { baseUrl: prd.url, production: true, ...bindingFile('prd', prdBinding) },
    },
    staticDir,
    logLevel: 'silent',
  });
  return {
    url: relay.url,
    previewUrl: `${relay.url}/taskpane.html`,
    acc,
    prd,
    relay,
    ...(accProxy ? { accProxy } : {}),
    async close() {
      await relay.close();
      await accProxy?.close();
      await Promise.all([acc.close(), prd.close()]);
      if (bindingDir) rmSync(bindingDir, { recursive: true, force: true });
    },
  };
}

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Chromium on a fresh temporary profile (removed on close), loopback traffic only. */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}; install Debian's chromium or set CHROMIUM_PATH.`);
  const profile = mkdtempSync(join(tmpdir(), 'grc-sheets-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  // Never the internet: everything but loopback is refused (Microsoft's office.js CDN included, so the
  // pages fall back to the packaged copy). A test that wants the CDN routes it on its page (page routes
  // come first).
  await context.route(
    (url) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname),
    (route) => route.abort('internetdisconnected'),
  );
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface PreviewOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
}

/** Opens the taskpane in preview mode and waits until the relay's environments are listed. */
export async function openPreview(browser: TestBrowser, stack: Stack, options: PreviewOptions = {}): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 });
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(stack.previewUrl);
  try {
    await page.locator('[data-testid="environment"] option').first().waitFor({ state: 'attached' });
  } catch (e) {
    throw new Error(`The taskpane did not list the relay's environments${errors.length ? `; page errors: ${errors.join('; ')}` : ''}: ${(e as Error).message}`);
  }
  return page;
}

export interface FileStack {
  stack: Stack;
  browser: TestBrowser;
  /** Set when the file asked for a page (or a connection); left unset otherwise. */
  page: Page;
}

export interface FileStackOptions extends StackOptions {
  /** Open the taskpane in preview mode, on a 1280 x 800 window. */
  page?: boolean;
  /** And connect it to this environment with its sandbox's demo key. */
  connectTo?: 'sandbox-acc' | 'sandbox-prd';
}

/**
 * One stack and browser for all the tests of a file: started before them (a page opened, and connected,
 * when asked) and closed after them. `started` hands them to the file's own variables:
 *
 *   let stack: Stack; let browser: TestBrowser; let page: Page;
 *   stackForFile({ scale: 50, page: true, connectTo: 'sandbox-acc' }, (s) => ({ stack, browser, page } = s));
 *
 * A file's own beforeAll declared after this call runs after it (e.g. loads a dataset on the page).
 */
export function stackForFile(options: FileStackOptions, started: (s: FileStack) => void): void {
  let stack: Stack | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    stack = await startStack(options);
    browser = await launchBrowser();
    const page = options.page || options.connectTo ? await openPreview(browser, stack) : (undefined as unknown as Page);
    if (options.connectTo) {
      const key = options.connectTo === 'sandbox-acc' ? stack.acc.demoKey! : stack.prd.demoKey!;
      if ((await connect(page, options.connectTo, key)) !== 'ok') throw new Error(`The demo key did not connect to ${options.connectTo}.`);
    }
    started({ stack, browser, page });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
}

/** Fills the Connect screen and presses "Test connection"; resolves when it succeeded or failed. */
export async function connect(page: Page, environment: string, key: { identifier: string; password: string }): Promise<'ok' | 'failed'> {
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.getByTestId('environment').selectOption(environment);
  await page.getByTestId('identifier').fill(key.identifier);
  await page.getByTestId('password').fill(key.password);
  const form = page.getByTestId('connect-form');
  const before = Number(await form.getAttribute('data-attempts'));
  await page.getByTestId('test-connection').click();
  await page.locator(`[data-testid="connect-form"][data-attempts="${before + 1}"]`).waitFor();
  return (await page.getByTestId('connect-ok').count()) > 0 ? 'ok' : 'failed';
}

/** Picks a dataset on the Datasets tab and loads it into a new sheet; resolves with the success text. */
export async function loadDataset(page: Page, datasetId: string): Promise<string> {
  await page.getByRole('tab', { name: 'Datasets' }).click();
  await page.getByTestId(`dataset-${datasetId}`).click();
  await page.getByTestId('load').click();
  const done = page.getByTestId('load-done').or(page.getByTestId('load-error'));
  await done.first().waitFor();
  const text = await done.first().innerText();
  if ((await page.getByTestId('load-error').count()) > 0) throw new Error(`loading ${datasetId} failed: ${text}`);
  return text;
}

/** On the Write-back tab, a new template of `flow` (catalogue id) in a new sheet; resolves once it is made. */
export async function newTemplate(page: Page, flow: string): Promise<void> {
  await page.getByTestId('taskpane').getByRole('tab', { name: 'Write-back', exact: true }).click();
  await page.getByTestId('wb-flow').selectOption(flow);
  await page.getByTestId('wb-new-template').click();
  await page.getByTestId('template-done').waitFor();
}

/**
 * Pastes tab-separated text at a cell of the preview grid, as Ctrl+V does: selects the cell and sends the
 * grid a paste event carrying the text (headless Chromium has no clipboard to read from).
 */
export async function pasteInGrid(page: Page, address: string, text: string): Promise<void> {
  await page.locator(`[data-testid="preview-grid"] td[data-cell="${address}"]`).click();
  await page.locator('[data-testid="preview-grid"] [role="grid"]').evaluate((grid, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    grid.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/**
 * Pastes rows given with a header line (`rows[0]`, column names in any order, some columns left out) at
 * `address` of the preview grid: the block is laid out by the column names of row 1 of the shown sheet,
 * as a user copying from a sheet with the template's columns would paste it.
 */
export async function pasteRowsByName(page: Page, address: string, rows: readonly (readonly string[])[]): Promise<void> {
  const names = await page.locator('[data-testid="preview-grid"] td[data-cell]').evaluateAll((tds) =>
    tds.filter((td) => /^[A-Z]+1$/.test((td as HTMLElement).dataset.cell!)).map((td) => (td as HTMLElement).innerText.trim()),
  );
  const at = rows[0]!.map((name) => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`No column named ${name} in row 1 of the preview grid (${names.join(', ')})`);
    return i;
  });
  const width = Math.max(...at) + 1;
  const block = rows.slice(1).map((row) => {
    const line = Array.from({ length: width }, () => '');
    row.forEach((v, i) => (line[at[i]!] = v));
    return line.join('\t');
  });
  await pasteInGrid(page, address, block.join('\n'));
}

/** Saves a PNG under test/e2e/screenshots/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  // Animations off: a tab's underline caught mid-slide would look like a layout bug to a reviewer.
  await page.screenshot({ path, fullPage: false, animations: 'disabled' });
  return path;
}
