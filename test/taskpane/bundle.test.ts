/**
 * What a user's first load of the taskpane costs in Excel: the scripts taskpane.html loads before its
 * first screen is drawn, gzip -9 (office.js excluded: Microsoft's CDN serves it, and Excel has it cached).
 * Everything else (Datasets, Tables, Write-back, the Excel adapter, the preview) is a chunk fetched when
 * first used. Measured on the production build in dist/ (npm test builds it first).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, requireDist } from '../e2e/harness';

const BUDGET = 200_000; // bytes, gzip -9

const gzipped = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

describe('taskpane.html first load', () => {
  it(`loads at most ${BUDGET / 1000} KB of script (gzip -9) before its first screen`, () => {
    requireDist();
    const html = readFileSync(join(DIST, 'taskpane.html'), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="?([^" >]+)/g)].map((m) => m[1]!);
    expect(scripts.map((s) => s.replace(/\.[0-9a-f]{8}\.js$/, ''))).toEqual(['office-loader', 'taskpane']);
    const first = scripts.reduce((sum, s) => sum + gzipped(s), 0);
    const chunks = readdirSync(DIST).filter((f) => f.endsWith('.js') && !scripts.includes(f));
    const later = chunks.reduce((sum, f) => sum + gzipped(f), 0);
    const figures = `first load ${(first / 1000).toFixed(1)} KB; ${chunks.length} chunks fetched when first used, ${(later / 1000).toFixed(1)} KB in all`;
    console.log(`taskpane bundle (gzip -9): ${figures}`);
    expect(first).toBeLessThanOrEqual(BUDGET);
  });

  it('the connection code (catalogue, zod, client), the screens after Connect and the Excel adapter are chunks', () => {
    requireDist();
    const files = readdirSync(DIST);
    for (const chunk of ['connection', 'writeback', 'datasets', 'tables', 'excel', 'preview']) {
      expect(files).toContainEqual(expect.stringMatching(new RegExp(`^${chunk}\\.[0-9a-f]{8}\\.js$`)));
    }
  });
});
