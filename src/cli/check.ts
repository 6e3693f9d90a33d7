import { parseArgs } from 'node:util';
import { createClient } from '../client';
import {
  directEnvironment,
  EnvironmentError,
  relayEnvironment,
  targetsOf,
  type CheckEnvironment,
} from '../check/environment';
import { KEY_ID_VAR, KEY_PASSWORD_VAR, KeyError, keyOnCommandLine, readKey } from '../check/key';
import { relayHeldKey } from '../check/held-key';
import { runCheck } from '../check/run';
import { renderTable } from '../check/table';
import { BindingFileError, loadBinding } from '../binding/load';
import { unreadableOptionFile } from './exit';
import { parseOptions } from './options';

const HELP = `Usage: grc-sheets check --relay URL --env NAME [--json]
       grc-sheets check --base-url URL [--binding FILE] [--json]

Checks a live environment, read-only: authenticates, then reads the first record of every documented or
bound dataset and cancels the rest of each download. It never writes. Per dataset it reports: answers
(and whether the first record fits the schema), 404 (path wrong), 403 (which key setting is missing),
401 (the address to approve under Requested IP addresses). See docs/binding.md.

Options:
  --relay URL      the relay (https://relay-host); the check goes through it, with its binding
  --env NAME       the relay's environment to check (as in GET /api/environments)
  --base-url URL   call the service directly (from a host whose address the key allows)
  --binding FILE   with --base-url: the environment's binding (grc-sheets binding import)
  --json           print the report as JSON (for scripts)
  -h, --help       this text

The API key comes from the environment variables ${KEY_ID_VAR} and ${KEY_PASSWORD_VAR}, or is
asked for on the terminal (the password is not shown). It is never taken on the command line.

Exit codes: 0 every checked dataset answered, 1 something failed, 2 wrong options or no key.`;

export interface CheckIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  tty?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };
  fetch: typeof globalThis.fetch;
}

const processIo = (): CheckIo => ({
  env: process.env,
  stdout: (t) => process.stdout.write(`${t}\n`),
  stderr: (t) => process.stderr.write(`${t}\n`),
  ...(process.stdin.isTTY ? { tty: { input: process.stdin, output: process.stderr } } : {}),
  fetch: globalThis.fetch,
});

export async function run(argv: string[], io: CheckIo = processIo()): Promise<number> {
  const refused = keyOnCommandLine(argv);
  if (refused) {
    io.stderr(`grc-sheets check: ${refused}`);
    return 2;
  }
  const values = parseOptions(
    'check',
    HELP,
    () =>
      parseArgs({
        args: argv,
        options: {
          relay: { type: 'string' },
          env: { type: 'string' },
          'base-url': { type: 'string' },
          binding: { type: 'string' },
          json: { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      }).values,
  );
  if (typeof values === 'number') return values;
  const usage = (message: string) => {
    io.stderr(`grc-sheets check: ${message}\n\n${HELP}`);
    return 2;
  };
  if (values.relay && values['base-url']) return usage('give --relay with --env, or --base-url, not both');
  if (values.relay && !values.env) return usage('--relay needs --env NAME (the environment to check)');
  if (!values.relay && !values['base-url']) return usage('give --relay URL --env NAME, or --base-url URL');
  if (values.relay && values.binding)
    return usage("--binding is for --base-url; through the relay the check uses the relay's binding");

  const unreadable = unreadableOptionFile('check', [
    ['--binding', values.binding, 'a binding file (grc-sheets binding import)'],
  ]);
  if (unreadable) {
    io.stderr(unreadable);
    return 2;
  }
  let key;
  try {
    key = await readKey({ env: io.env, ...(io.tty ? { tty: io.tty } : {}) });
  } catch (e) {
    if (e instanceof KeyError) return usage(e.message);
    throw e;
  }
  let environment: CheckEnvironment;
  try {
    environment = values.relay
      ? await relayEnvironment(values.relay, values.env!, io.fetch)
      : directEnvironment(values['base-url']!, values.binding ? loadBinding(values.binding) : null);
  } catch (e) {
    if (e instanceof EnvironmentError || e instanceof BindingFileError) {
      io.stderr(`grc-sheets check: ${e instanceof BindingFileError ? '--binding ' : ''}${e.message}`);
      return 2;
    }
    throw e;
  }
  let client;
  try {
    client = createClient({
      baseUrl: environment.baseUrl,
      credentials: key,
      catalog: environment.catalog,
      fetch: (input, init) => io.fetch(input, init),
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const report = await runCheck({
    client,
    targets: targetsOf(environment.catalog),
    target: environment.target,
    callerIp: environment.callerIp,
  });
  const held = values.relay ? await relayHeldKey(values.relay, values.env!, io.fetch) : null;
  if (held) report.heldKey = held;
  io.stdout(values.json ? JSON.stringify(report, null, 2) : renderTable(report));
  return report.ok ? 0 : 1;
}
