/**
 * The `grc-sheets` command: option parsing and wiring only. Each subcommand lives in its own file and is
 * loaded on demand, so `grc-sheets sandbox` does not load the relay and the reverse.
 */
import { EXIT_CODES_HELP } from './exit';

type CommandModule = { run(argv: string[]): Promise<number> };
type Command = { summary: string; load: () => Promise<CommandModule> };

// bin/grc-sheets.js registers tsx for require() only: a dynamic import() of a .ts file would reach Node's
// ESM loader, which cannot resolve it. require() inside the thunk keeps the on-demand loading.
/* eslint-disable @typescript-eslint/no-require-imports */
const lazy = (load: () => CommandModule) => () => Promise.resolve().then(load);

const COMMANDS: Record<string, Command> = {
  sandbox: { summary: 'run the local emulator of the service', load: lazy(() => require('./sandbox')) },
  relay: {
    summary: 'run the fixed-IP relay between the taskpane and the service',
    load: lazy(() => require('./relay')),
  },
  check: {
    summary: 'check a live environment, read-only: key, address, every dataset path',
    load: lazy(() => require('./check')),
  },
  binding: {
    summary: "import the service's Swagger file into a binding (binding import FILE)",
    load: lazy(() => require('./binding')),
  },
  load: {
    summary: 'load a dataset into a new table of a workbook file, made when missing (load BOOK.xlsx --dataset ID)',
    load: lazy(() => require('./load')),
  },
  refresh: {
    summary: 'refresh the tables of a saved workbook without Excel (refresh BOOK.xlsx)',
    load: lazy(() => require('./refresh')),
  },
  verify: {
    summary: 'check a saved workbook: tables against their fingerprints, totals and signed statements, the audit chain (verify BOOK.xlsx)',
    load: lazy(() => require('./verify')),
  },
  evidence: {
    summary: "write one table's evidence for the audit file (evidence BOOK.xlsx --table T --out FILE)",
    load: lazy(() => require('./evidence')),
  },
  template: {
    summary: "write the add-in's write-back template into a workbook file (template --flow F BOOK.xlsx)",
    load: lazy(() => require('./template')),
  },
  post: {
    summary: 'validate and post a write-back template table of a workbook file (post BOOK.xlsx --table T)',
    load: lazy(() => require('./post')),
  },
  start: {
    summary: 'run sandbox, relay and the add-in together (what npm start does)',
    load: lazy(() => require('./start')),
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return [
    'Usage: grc-sheets <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run grc-sheets <command> --help for its options.',
    '',
    EXIT_CODES_HELP,
  ].join('\n');
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
