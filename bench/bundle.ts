/**
 * Bundle sizes: every script in dist/ (minified bytes and gzip -9 bytes), and what each kind of page
 * downloads: Excel (the office loader and the taskpane entry) and the preview (those plus the preview
 * chunk). Measures the built add-in as it is (`npm run build` first). With BUNDLE_BEFORE=<dist folder of
 * another build> the same figures of that build are shown beside, for a before/after comparison.
 * Then the first load as transferred (issue 27): taskpane.html's cold start in headless Chromium through
 * the relay as `npm start` runs it (both sandboxes bound to their own Swagger file), every response's bytes
 * over the wire (test/e2e/first-load.ts), against the goal of 250 KB with office.js excluded.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ownBinding } from '../src/cli/own-binding';
import { measureFirstLoad, type FirstLoad } from '../test/e2e/first-load';
import { launchBrowser, startStack } from '../test/e2e/harness';

const DIST = process.env.BUNDLE_DIST ?? join(__dirname, '..', 'dist');

interface Script {
  file: string;
  bytes: number;
  gzip: number;
}

function scripts(dist: string): Script[] {
  if (!existsSync(join(dist, 'taskpane.html')))
    throw new Error(`${dist} holds no build; run "npm run build" first.`);
  return readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((file) => {
      const body = readFileSync(join(dist, file));
      return { file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
    });
}

/** The scripts taskpane.html names, then (preview only) the chunks the entry imports without an Office host. */
function pages(dist: string, all: Script[]) {
  const html = readFileSync(join(dist, 'taskpane.html'), 'utf8');
  const named = new Set([...html.matchAll(/<script[^>]*src="?([^" >]+\.js)"?/g)].map((m) => m[1]!));
  const excel = all.filter((s) => named.has(s.file));
  const preview = [...excel, ...all.filter((s) => s.file.startsWith('preview.'))];
  const sum = (list: Script[]) => ({
    bytes: list.reduce((n, s) => n + s.bytes, 0),
    gzip: list.reduce((n, s) => n + s.gzip, 0),
  });
  return { excel: sum(excel), preview: sum(preview) };
}

const kb = (n: number) => (n / 1024).toFixed(1);

/** The goal of issue 27: what a cold start transfers, office.js excluded. */
const FIRST_LOAD_GOAL = 250_000;

async function firstLoad(): Promise<FirstLoad> {
  if (DIST !== join(__dirname, '..', 'dist'))
    throw new Error('the first load is measured on dist/ only (BUNDLE_DIST unset)');
  const own = await ownBinding();
  const stack = await startStack({ bindings: { acc: own.binding, prd: own.binding } });
  const browser = await launchBrowser();
  try {
    return await measureFirstLoad(browser.context, stack.previewUrl);
  } finally {
    await browser.close();
    await stack.close();
  }
}

function firstLoadSection(load: FirstLoad): string[] {
  const met = load.transferred <= FIRST_LOAD_GOAL;
  const thousand = (n: number) => n.toLocaleString('en-US');
  return [
    '',
    '### First load as transferred: taskpane.html, cold',
    '',
    `Headless Chromium on a fresh profile opens the preview (\`npm start\`'s setup: relay serving \`dist/\`, both sandboxes bound to their own Swagger file) until the environments are listed and the network is idle; each response's bytes over the wire (DevTools encodedDataLength: headers and body as sent). Chromium asked with \`Accept-Encoding: ${load.acceptEncoding}\`.`,
    '',
    '| response | coding | bytes transferred | bytes decoded |',
    '|---|---|---:|---:|',
    ...load.responses.map(
      (r) =>
        `| ${r.url.replace(/\.[0-9a-f]{8}\.js$/, '.js')}${r.counted ? '' : ' (not counted: office.js)'} | ${r.encoding ?? 'none'} | ${thousand(r.transferred)} | ${thousand(r.decoded)} |`,
    ),
    `| **first load, office.js excluded** | | **${thousand(load.transferred)}** | ${thousand(load.decoded)} |`,
    '',
    `Target: at most ${thousand(FIRST_LOAD_GOAL)} bytes transferred, office.js excluded: **${met ? 'met' : 'missed'}** (${(load.transferred / FIRST_LOAD_GOAL).toFixed(2)}x the target; ${(load.transferred / load.decoded).toFixed(2)}x the decoded bytes). When issue 27 was filed, nothing was compressed and the same page transferred 1,169,794 bytes (office.js's fallback included).`,
  ];
}

export default async function bundle(): Promise<string> {
  const now = scripts(DIST);
  const nowPages = pages(DIST, now);
  const beforeDir = process.env.BUNDLE_BEFORE;
  const before = beforeDir ? pages(beforeDir, scripts(beforeDir)) : undefined;
  const lines = [
    '### Bundle: what the taskpane downloads',
    '',
    'Scripts in `dist/` of a production build (`npm run build`), minified and gzip -9.',
    '',
    '| script | KB | KB gzip |',
    '|---|---:|---:|',
    ...now.map((s) => `| ${s.file.replace(/\.[0-9a-f]{8}\.js$/, '.js')} | ${kb(s.bytes)} | ${kb(s.gzip)} |`),
    '',
    before ? '| page | KB gzip before | KB gzip now | now vs before |' : '| page | KB | KB gzip |',
    before ? '|---|---:|---:|---:|' : '|---|---:|---:|',
  ];
  for (const [name, label] of [
    ['excel', 'taskpane in Excel (office loader + taskpane)'],
    ['preview', 'taskpane in preview (+ preview chunk)'],
  ] as const) {
    const n = nowPages[name];
    lines.push(
      before
        ? `| ${label} | ${kb(before[name].gzip)} | ${kb(n.gzip)} | ${(n.gzip / before[name].gzip).toFixed(2)}× |`
        : `| ${label} | ${kb(n.bytes)} | ${kb(n.gzip)} |`,
    );
  }
  if (beforeDir)
    lines.push(
      '',
      `Before: the build in ${process.env.BUNDLE_BEFORE_LABEL ?? beforeDir} (\`BUNDLE_BEFORE=<its dist> npm run bench bundle\`).`,
    );
  lines.push(
    '',
    "office.js itself (Microsoft's CDN, or the packaged fallback in `dist/office-js/`) is not counted.",
    // The browser stack serves dist/ (test/e2e/harness.ts): another build's first load is not measured.
    ...(DIST === join(__dirname, '..', 'dist')
      ? firstLoadSection(await firstLoad())
      : ['', `First load as transferred: measured on dist/ only, not on ${DIST}.`]),
  );
  return lines.join('\n');
}
