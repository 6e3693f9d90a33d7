// The workbook commands as one bundled CommonJS file, built by esbuild (which tsx brings) and kept in
// node_modules/.cache: started through tsx, `grc-sheets post --help` took about 0.95 s on the 2-core build
// machine, most of it tsx's require hook compiling and wrapping some 450 modules (its hook doubles even
// plain node_modules: undici 113 -> 222 ms); from the bundle, 0.45 s. A scheduled refresh and every post
// pay it, and the post benchmark counts it.
//
// Only commands whose code needs no file beside its own source: the relay, the sandbox and start find
// files by __dirname (the relay's hashing thread, the demo sign-in provider) and keep running through tsx.
// The bundle is used only while no file it was built from has changed since (mtimes, checked at each
// start: a few ms); otherwise it is built again first (about 0.5 s), and anything wrong with building it
// (no esbuild, a read-only node_modules) falls back to tsx. GRC_SHEETS_NO_BUNDLE=1 always uses tsx.
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const BUNDLED = new Set(['template', 'post', 'load', 'refresh', 'verify', 'evidence', 'check', 'binding']);
const ROOT = resolve(__dirname, '..');
const DIR = join(ROOT, 'node_modules', '.cache', 'grc-sheets');
const OUT = join(DIR, 'cli.js');
const INPUTS = join(DIR, 'cli.inputs.json');

function fresh() {
  try {
    const { built, files } = JSON.parse(readFileSync(INPUTS, 'utf8'));
    return files.every((f) => statSync(join(ROOT, f)).mtimeMs <= built);
  } catch {
    return false;
  }
}

function build() {
  const esbuild = require('esbuild');
  // Taken before the build reads anything: a file saved while it runs counts as changed next time.
  const built = Date.now();
  const result = esbuild.buildSync({
    entryPoints: [join(ROOT, 'src', 'cli', 'main.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // As tsx runs the sources: class and function names kept (errors are told apart by name).
    keepNames: true,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(DIR, { recursive: true });
  // Two commands started at once may both build: each writes its own file and renames it into place.
  const temp = `${OUT}.${process.pid}.tmp`;
  writeFileSync(temp, result.outputFiles[0].contents);
  renameSync(temp, OUT);
  // npm gives installed files their package's own times, often older than the last build: the record of
  // the last install stands for them all.
  const installed = 'node_modules/.package-lock.json';
  const files = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/'));
  try {
    statSync(join(ROOT, installed));
    files.push(installed);
  } catch {
    // No record of the install (another package manager): the sources alone.
  }
  writeFileSync(`${INPUTS}.${process.pid}.tmp`, JSON.stringify({ built, files }));
  renameSync(`${INPUTS}.${process.pid}.tmp`, INPUTS);
}

/** The bundled CLI's `main` for `command`, built when missing or stale; null where tsx must run it. */
function bundledMain(command) {
  if (!BUNDLED.has(command) || process.env.GRC_SHEETS_NO_BUNDLE === '1') return null;
  try {
    if (!fresh()) build();
    return require(OUT).main;
  } catch {
    return null;
  }
}

module.exports = { bundledMain };
