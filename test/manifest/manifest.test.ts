/**
 * The manifest, checked offline (`npm run validate` needs Microsoft's online service): well-formed XML
 * with the elements Office requires, and every URL it names served by the build in dist/.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// xml2js is the parser office-addin-manifest reads manifests with; its main module cannot be loaded in
// jest's CommonJS runtime (ESM-only dependencies), so the same parser is used directly.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseStringPromise } = require('xml2js') as { parseStringPromise(xml: string): Promise<Xml> };

type Xml = { [name: string]: Xml[] | string | Record<string, string> | undefined; $?: Record<string, string> };

const first = (node: Xml, name: string): Xml => (node[name] as Xml[] | undefined)?.[0] ?? {};
const attr = (node: Xml, name: string): string | undefined => node.$?.[name];

/** What Office reads first from a manifest, from the parsed XML; throws when the XML is not well-formed. */
async function readManifest(file: string) {
  const app = ((await parseStringPromise(readFileSync(file, 'utf8'))) as { OfficeApp: Xml }).OfficeApp;
  return {
    officeAppType: attr(app, 'xsi:type'),
    id: (app.Id as string[] | undefined)?.[0],
    hosts: ((first(app, 'Hosts').Host as Xml[] | undefined) ?? []).map((h) => attr(h, 'Name')),
    displayName: attr(first(app, 'DisplayName'), 'DefaultValue'),
    permissions: (app.Permissions as string[] | undefined)?.[0],
    sourceLocation: attr(first(first(app, 'DefaultSettings'), 'SourceLocation'), 'DefaultValue'),
  };
}

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const SOURCE = join(ROOT, 'manifest.xml');
const DEV_ORIGIN = 'https://localhost:3000';

function builtManifest(): string {
  const file = join(DIST, 'manifest.xml');
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first (npm test does).`);
  return file;
}

const urlsIn = (xml: string): string[] => [...new Set([...xml.matchAll(/"(https:\/\/[^"]+)"/g)].map((m) => m[1]!))];
const textOf = (xml: string, element: string): string[] => [...xml.matchAll(new RegExp(`<${element}>([^<]*)</${element}>`, 'g'))].map((m) => m[1]!);

test('the source manifest is well-formed and names an Excel taskpane add-in', async () => {
  const info = await readManifest(SOURCE);
  expect(info.officeAppType).toBe('TaskPaneApp');
  expect(info.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(info.hosts).toEqual(['Workbook']);
  expect(info.displayName).toBe('GRC Sheets');
  expect(info.sourceLocation).toBe(`${DEV_ORIGIN}/taskpane.html`);
  expect(info.permissions).toBe('ReadWriteDocument');
});

test('a malformed manifest is reported, so the check above means something', async () => {
  const broken = join(ROOT, 'test', 'manifest', 'broken.fixture.xml');
  await expect(readManifest(broken)).rejects.toThrow();
});

test('the manifest requires ExcelApi 1.8 and puts a button on the ribbon that opens the taskpane', () => {
  const xml = readFileSync(SOURCE, 'utf8');
  expect(xml).toMatch(/<Set Name="ExcelApi" MinVersion="1\.8"\/>/);
  expect(xml).toMatch(/<ExtensionPoint xsi:type="PrimaryCommandSurface">/);
  expect(xml).toMatch(/<Control xsi:type="Button" id="GrcSheets\.TaskpaneButton">[\s\S]*<Action xsi:type="ShowTaskpane">/);
  for (const size of [16, 32, 80]) expect(xml).toContain(`<bt:Image size="${size}" resid="Icon.${size}x${size}"/>`);
  // Every resource id a control refers to is defined.
  const defined = new Set([...xml.matchAll(/<bt:(?:Image|Url|String) id="([^"]+)"/g)].map((m) => m[1]));
  for (const [, id] of xml.matchAll(/resid="([^"]+)"/g)) expect(defined).toContain(id);
});

test('every source location is HTTPS on the development origin', () => {
  const urls = urlsIn(readFileSync(SOURCE, 'utf8'));
  expect(urls.length).toBeGreaterThan(5);
  for (const url of urls) expect(url.startsWith(`${DEV_ORIGIN}/`) || url === DEV_ORIGIN).toBe(true);
});

test('every URL and icon of the built manifest resolves to a file in dist/', async () => {
  const file = builtManifest();
  const xml = readFileSync(file, 'utf8');
  await expect(readManifest(file)).resolves.toMatchObject({ officeAppType: 'TaskPaneApp' });
  const origin = new URL((await readManifest(file)).sourceLocation!).origin;
  expect(textOf(xml, 'AppDomain')).toEqual([origin]);
  for (const url of urlsIn(xml)) {
    if (url === origin) continue;
    const path = new URL(url).pathname;
    const target = join(DIST, decodeURIComponent(path));
    expect({ url, exists: existsSync(target) && statSync(target).isFile() }).toEqual({ url, exists: true });
  }
});

test('the icons are PNGs of the sizes their names say', () => {
  for (const size of [16, 32, 64, 80]) {
    const png = readFileSync(join(DIST, 'assets', `icon-${size}.png`));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  }
});

test("the pages load office.js through the office loader: Microsoft's CDN first, the packaged copy as fallback", () => {
  builtManifest();
  for (const page of ['taskpane.html', 'commands.html']) {
    const html = readFileSync(join(DIST, page), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*src="?([^" >]+)"?/g)].map((m) => m[1]!);
    expect(scripts[0]).toMatch(/^office-loader\.[0-9a-f]{8}\.js$/);
    expect(scripts).toHaveLength(2);
    // No inline script: the relay's CSP allows scripts from our origin and the CDN only.
    expect(html).not.toMatch(/<script(?![^>]*src)[^>]*>/);
    const loader = readFileSync(join(DIST, scripts[0]!), 'utf8');
    expect(loader).toContain('https://appsforoffice.microsoft.com/lib/1/hosted/office.js');
    expect(loader).toContain('office-js/office.js');
  }
  expect(existsSync(join(DIST, 'office-js', 'office.js'))).toBe(true);
  expect(existsSync(join(DIST, 'office-js', 'excel-web-16.00.js'))).toBe(true);
});

describe('the production origin', () => {
  type Pattern = { to?: string; transform?: (content: Buffer) => string };
  function manifestTransform(): (content: Buffer) => string {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = require('../../webpack.config.js')({}, { mode: 'production' }) as { plugins: { patterns?: Pattern[] }[] };
    const pattern = config.plugins.flatMap((p) => p.patterns ?? []).find((p) => p.to === 'manifest.xml');
    return pattern!.transform!;
  }
  const saved = process.env.GRC_SHEETS_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.GRC_SHEETS_URL;
    else process.env.GRC_SHEETS_URL = saved;
  });

  test('GRC_SHEETS_URL replaces the development origin in every URL of the built manifest', () => {
    process.env.GRC_SHEETS_URL = 'https://grc-relay.example.com/addin/';
    const out = manifestTransform()(readFileSync(SOURCE));
    expect(out).not.toContain('localhost');
    expect(out).toContain('<SourceLocation DefaultValue="https://grc-relay.example.com/addin/taskpane.html"/>');
    expect(urlsIn(out).every((u) => u.startsWith('https://grc-relay.example.com'))).toBe(true);
  });

  test('a plain-HTTP production URL is refused: Office loads add-ins over HTTPS only', () => {
    process.env.GRC_SHEETS_URL = 'http://grc-relay.example.com';
    expect(() => manifestTransform()).toThrow(/must be an https:\/\/ URL/);
  });
});
