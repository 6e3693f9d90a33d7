import { accessSync, constants, statSync } from 'node:fs';

/**
 * One exit code convention for every subcommand, printed by `grc-sheets --help`:
 * 0 stopped normally (Ctrl-C, SIGTERM) or printed help; 1 could not start or failed while running, for a
 * reason outside the command line (a port in use, the add-in not built, a check that found a failure); 2 a
 * wrong command line, configuration or input file (missing, unreadable or not the kind of file expected),
 * with the option, field or file named in the message. No command uses another code: a command run under
 * npx or npm that stops on Ctrl-C exits 0 too (see untilStopped).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const EXIT_CODES_HELP = `Exit codes (every command):
  0  stopped normally (Ctrl-C or SIGTERM), or --help
  1  could not start or failed while running for a reason outside the command line
     (a port in use, the add-in not built); the message says what to do
  2  a wrong option, configuration or input file; the message names the option, field or file`;

/**
 * "Port in use", said in words with the way to pick another, or null for any other error.
 * `hint` is how this command chooses its port (`--port N`, `listen.port`, ...).
 */
export function portInUseMessage(e: unknown, hint: string): string | null {
  const err = e as NodeJS.ErrnoException & { port?: number; address?: string };
  if (err?.code !== 'EADDRINUSE') return null;
  const where =
    err.port !== undefined ? `port ${err.port}${err.address ? ` on ${err.address}` : ''}` : 'the port';
  return `${where} is already in use (another program, or another grc-sheets, listens there). ${hint}`;
}

/**
 * Why a file named on the command line cannot be read, in words (no "ENOENT"), or null when it can be
 * opened. `what` says which file it is meant to be ("the Swagger or OpenAPI file").
 */
export function unreadableFile(file: string, what: string): string | null {
  let stat;
  try {
    stat = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${file} does not exist. Give the path of ${what}.`;
    if (code === 'EACCES') return `${file} cannot be read: permission denied.`;
    return `${file} cannot be read (${(e as Error).message}).`;
  }
  if (stat.isDirectory()) return `${file} is a folder. Give the path of ${what}.`;
  try {
    accessSync(file, constants.R_OK);
  } catch {
    return `${file} cannot be read: permission denied.`;
  }
  return null;
}

/**
 * The files a command's options name, checked before the command uses any: the first that cannot be read,
 * said as `grc-sheets <command>: <option> <why>` (print it and exit 2), or null when all can be.
 */
export function unreadableOptionFile(
  command: string,
  files: readonly [option: string, file: string | undefined, what: string][],
): string | null {
  for (const [option, file, what] of files) {
    const problem = file === undefined ? null : unreadableFile(file, what);
    if (problem) return `grc-sheets ${command}: ${option} ${problem}`;
  }
  return null;
}
