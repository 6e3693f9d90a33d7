#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so there is no separate build step for the Node parts.

/**
 * V8 settings the relay runs with (docs/relay.md, Performance, has the measurements):
 * - a 2 MiB young generation (V8's default grows to 16 MiB a semi-space): the streamed chunks' memory is
 *   given back sooner, a 500 MiB stream peaks about 135 MB instead of 155 (1 MiB: 128 MB, but garbage
 *   collection then takes 9.5% of the time under small GETs instead of 5.7%);
 * - an old generation allowed to grow to four times its live size before a full collection (V8 picks its
 *   own factor): on a relay that had just served small GETs, V8 ran full collections back to back through
 *   a whole download (one every 50 to 70 ms, the heap at 17 MB before and after each, `--trace-gc`), and
 *   the download ran at a third of its usual speed.
 * Both are fixed when the heap is made: v8.setFlagsFromString here is too late (checked: new space still
 * grows to 32 MiB), so `relay` started without them (on the command line or in NODE_OPTIONS) runs itself
 * again with the missing ones, passing signals on so SIGTERM still stops it gracefully.
 */
const RELAY_V8_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=300'];

function missingRelayFlags(args) {
  if (args[0] !== 'relay' || args.includes('--help') || args.includes('-h')) return [];
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return RELAY_V8_FLAGS.filter((flag) => !given.some((a) => a.startsWith(flag.split('=')[0])));
}

const args = process.argv.slice(2);
const missing = missingRelayFlags(args);
if (missing.length > 0) {
  const { spawn } = require('node:child_process');
  // Its own process group: Ctrl-C in a terminal signals the whole foreground group, and the relay must get
  // one SIGINT (a graceful stop), not that one plus ours (a second signal stops it at once). A service
  // manager that signals every process of the unit should start node with the flags itself (docs/relay.md).
  const child = spawn(process.execPath, [...missing, ...process.execArgv, __filename, ...args], {
    stdio: 'inherit',
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  // In a terminal, Ctrl-C is read here as a key and passed on as SIGINT (src/cli/terminal-keys.ts says why:
  // no signal then reaches npm's script shell); the relay, in its own group, does not own the terminal.
  require('tsx/cjs');
  const giveTerminalBack = require('../src/cli/terminal-keys.ts').ctrlCAsKey(() => child.kill('SIGINT'));
  child.on('exit', (code, signal) => {
    giveTerminalBack();
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
} else {
  // The workbook commands from their bundle when it is fresh (cli-bundle.js says why), the others through tsx.
  let main = require('./cli-bundle.js').bundledMain(args[0]);
  if (!main) {
    require('tsx/cjs');
    main = require('../src/cli/main.ts').main;
  }
  main(args).then(
    (code) => { if (typeof code === 'number') process.exitCode = code; },
    (err) => { console.error(err instanceof Error ? err.message : err); process.exitCode = 1; },
  );
}
