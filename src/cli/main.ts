/**
 * The `grc-sheets` command: option parsing and wiring only. Each subcommand lives in its own file and is
 * loaded on demand, so `grc-sheets sandbox` does not load the relay and the reverse.
 */
type Command = { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  sandbox: { summary: 'run the local emulator of the service', load: () => import('./sandbox') },
  relay: { summary: 'run the fixed-IP relay between the taskpane and the service', load: () => import('./relay') },
  start: { summary: 'run sandbox, relay and the add-in together (what npm start does)', load: () => import('./start') },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return ['Usage: grc-sheets <command> [options]', '', 'Commands:', ...lines, '', 'Run grc-sheets <command> --help for its options.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`grc-sheets: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return (await command.load()).run(rest);
}
