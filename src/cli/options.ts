/**
 * What every subcommand does the same way: a wrong option prints the error and the help and exits 2,
 * --help prints the help and exits 0, and a running server stops on Ctrl-C or SIGTERM.
 */

import { ctrlCAsKey } from './terminal-keys';

/**
 * Runs the command's option parsing (which throws on a wrong option); the exit code when the command
 * should stop there, else the parsed options.
 */
export function parseOptions<V extends object>(
  command: string,
  help: string,
  parse: () => V,
): Exclude<V, { help: true }> | number {
  let values: V;
  try {
    values = parse();
  } catch (e) {
    console.error(`grc-sheets ${command}: ${(e as Error).message}\n\n${help}`);
    return 2;
  }
  if ((values as { help?: boolean }).help) {
    console.log(help);
    return 0;
  }
  return values as Exclude<V, { help: true }>;
}

/**
 * Resolves at the first SIGINT or SIGTERM, or Ctrl-C read from the terminal (terminal-keys.ts: under npm's
 * script shell a Ctrl-C signal would make the stop exit 130). Later ones are absorbed while the command
 * stops: Ctrl-C under `npx` or `npm run` can reach the command twice (from the terminal to the whole process
 * group, and again forwarded by npm), and the second must not kill the process mid-stop (exit 130 instead
 * of 0). The stop itself is bounded (the relay's limits.shutdownGraceMs, the sandboxes close at once);
 * signal handlers do not keep Node running, and the terminal is given back at the first stop, so the
 * process still exits when the command returns.
 */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    let sigints = 0;
    const stop = () => {
      giveTerminalBack();
      resolve();
    };
    const onSigint = () => {
      sigints += 1;
      // Under npm a terminal's SIGINT comes twice: to the whole group, then forwarded by npm. Stopping at the
      // first, a quick stop could reach Node's own teardown (where its handlers are gone) just as npm's copy
      // arrives, and die of it: npm then exits 130 (seen on a loaded CI machine). So the stop waits for the
      // copy, at most FORWARD_WAIT_MS (a SIGINT sent to npm alone comes once).
      if (sigints > 1 || !process.env.npm_command) stop();
      else setTimeout(stop, FORWARD_WAIT_MS).unref();
    };
    const giveTerminalBack = ctrlCAsKey(stop);
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', stop);
  });
}

/** How long a stop under npm waits for npm's copy of a SIGINT. */
const FORWARD_WAIT_MS = 300;
