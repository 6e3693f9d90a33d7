import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The workbook commands run from a bundle (bin/cli-bundle.js): never from one older than the sources. A
 * source saved after the bundle was built makes the next start build it again.
 */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'grc-sheets.js');
const INPUTS = join(ROOT, 'node_modules', '.cache', 'grc-sheets', 'cli.inputs.json');
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => execFileSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
const builtAt = () => (JSON.parse(readFileSync(INPUTS, 'utf8')) as { built: number }).built;

describe('grc-sheets: the workbook commands from their bundle', () => {
  it('says what the sources say, and is built again once a source it holds has changed', () => {
    const bundled = run(['post', '--help']);
    expect(bundled).toBe(run(['post', '--help'], { GRC_SHEETS_NO_BUNDLE: '1' }));
    const { files } = JSON.parse(readFileSync(INPUTS, 'utf8')) as { files: string[] };
    expect(files).toEqual(expect.arrayContaining(['src/cli/post.ts', 'src/writeback/post/run.ts', 'src/workbook/file/save.ts']));
    const before = builtAt();
    // Saved again (same text): its time moves past the build's.
    const source = join(ROOT, 'src', 'writeback', 'post', 'marks.ts');
    const now = new Date(Math.max(Date.now(), before + 1));
    utimesSync(source, now, now);
    expect(statSync(source).mtimeMs).toBeGreaterThan(before);
    expect(run(['post', '--help'])).toBe(bundled);
    expect(builtAt()).toBeGreaterThan(before);
  }, 60_000);
});
