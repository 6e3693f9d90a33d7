#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so there is no separate build step for the Node parts.
const SEMI_SPACE = '--max-semi-space-size=1';

/**
 * The relay streams every answer through short-lived buffers; with V8's default young generation (up to
 * 16 MiB a semi-space) a 500 MiB stream peaks about 155 MB, with 1 MiB about 128 MB (docs/relay.md,
 * Performance). The size is fixed when the heap is made: v8.setFlagsFromString here is too late (checked:
 * new space still grows to 32 MiB), so `relay` started without the flag (on the command line or in
 * NODE_OPTIONS) runs itself again with it, passing signals on so SIGTERM still stops it gracefully.
 */
function needsSemiSpaceFlag(args) {
  if (args[0] !== 'relay' || args.includes('--help') || args.includes('-h')) return false;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return !given.some((a) => a.startsWith('--max-semi-space-size'));
}

const args = process.argv.slice(2);
if (needsSemiSpaceFlag(args)) {
  const { spawn } = require('node:child_process');
  // Its own process group: Ctrl-C in a terminal signals the whole foreground group, and the relay must get
  // one SIGINT (a graceful stop), not that one plus ours (a second signal stops it at once). A service
  // manager that signals every process of the unit should start node with the flag itself (docs/relay.md).
  const child = spawn(process.execPath, [SEMI_SPACE, ...process.execArgv, __filename, ...args], {
    stdio: 'inherit',
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
} else {
  require('tsx/cjs');
  require('../src/cli/main.ts').main(args).then(
    (code) => { if (typeof code === 'number') process.exitCode = code; },
    (err) => { console.error(err instanceof Error ? err.message : err); process.exitCode = 1; },
  );
}
