/**
 * What every subcommand does the same way: a wrong option prints the error and the help and exits 2,
 * --help prints the help and exits 0, and a running server stops on Ctrl-C or SIGTERM.
 */

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

/** Resolves at the first SIGINT or SIGTERM, and leaves both signals as they were. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
