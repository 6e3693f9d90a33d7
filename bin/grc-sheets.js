#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so there is no separate build step for the Node parts.
require('tsx/cjs');
require('../src/cli/main.ts').main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : err); process.exitCode = 1; },
);
