/**
 * Bundle sizes: every script in dist/ (minified bytes and gzip -9 bytes), and what each kind of page
 * downloads: Excel (the office loader and the taskpane entry) and the preview (those plus the preview
 * chunk). Measures the built add-in as it is (`npm run build` first). With BUNDLE_BEFORE=<dist folder of
 * another build> the same figures of that build are shown beside, for a before/after comparison.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

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
  );
  return lines.join('\n');
}
