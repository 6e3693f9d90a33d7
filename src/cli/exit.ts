/**
 * One exit code convention for every subcommand, printed by `grc-sheets --help`:
 * 0 stopped normally (Ctrl-C, SIGTERM) or printed help; 1 could not start or failed while running, for a
 * reason outside the command line (a port in use, the add-in not built); 2 a wrong command line or
 * configuration, with the option or field named in the message.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const EXIT_CODES_HELP = `Exit codes (every command):
  0  stopped normally (Ctrl-C or SIGTERM), or --help
  1  could not start or failed while running for a reason outside the command line
     (a port in use, the add-in not built); the message says what to do
  2  a wrong option or configuration; the message names the option or field`;

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
