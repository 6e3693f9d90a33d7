import { parseArgs } from 'node:util';
import { createClient } from '../client';
import { KEY_ID_VAR, KEY_PASSWORD_VAR, KeyError, keyOnCommandLine, readKey } from '../connect/key';
import { bindingSource, EnvironmentError, openEnvironment, type OpenedEnvironment } from '../connect/open';
import { relayHeldKey } from '../check/held-key';
import { runCheck } from '../check/run';
import { renderTable } from '../check/table';
import { targetsOf } from '../check/targets';
import { BindingFileError } from '../binding/load';
import { RelayConfigError } from '../relay/config';
import { unreadableOptionFile } from './exit';
import { parseOptions } from './options';

const HELP = `Usage: grc-sheets check --relay URL --env NAME [--json]
       grc-sheets check --relay-config FILE --env NAME [--json]
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
  --relay-config FILE
                   call the service directly, as the relay's configuration file declares environment
                   --env (its baseUrl, binding and production), from the relay's host
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
          'relay-config': { type: 'string' },
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
  const ways = [values.relay && '--relay', values['base-url'] && '--base-url', values['relay-config'] && '--relay-config'].filter(Boolean);
  if (ways.length > 1) return usage(`give one of --relay URL, --base-url URL or --relay-config FILE, not ${ways.join(' and ')}`);
  if (ways.length === 0) return usage('give --relay URL --env NAME, --relay-config FILE --env NAME, or --base-url URL');
  if (values.relay && !values.env) return usage('--relay needs --env NAME (the environment to check)');
  if (values['relay-config'] && !values.env) return usage('--relay-config needs --env NAME (the environment to check)');
  if (values.relay && values.binding)
    return usage("--binding is for --base-url; through the relay the check uses the relay's binding");
  if (values['relay-config'] && values.binding)
    return usage("--binding is for --base-url; with --relay-config the environment's binding in that file is used");

  const unreadable = unreadableOptionFile('check', [
    ['--binding', values.binding, 'a binding file (grc-sheets binding import)'],
    ['--relay-config', values['relay-config'], "the relay's configuration file (relay.example.json shows its format)"],
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
  let opened: OpenedEnvironment;
  try {
    opened = await openEnvironment(
      values.relay
        ? { via: 'relay', relay: values.relay, name: values.env! }
        : values['relay-config']
          ? { via: 'relay-config', file: values['relay-config'], name: values.env!, env: io.env }
          : { via: 'direct', baseUrl: values['base-url']!, name: values.env ?? null, binding: values.binding ?? null },
      io.fetch,
    );
  } catch (e) {
    if (e instanceof EnvironmentError || e instanceof BindingFileError || e instanceof RelayConfigError) {
      io.stderr(`grc-sheets check: ${e instanceof BindingFileError ? '--binding ' : e instanceof RelayConfigError ? '--relay-config: ' : ''}${e.message}`);
      return 2;
    }
    throw e;
  }
  const { environment } = opened;
  let client;
  try {
    client = createClient({
      baseUrl: opened.baseUrl,
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
    target: {
      via: opened.via,
      url: opened.url,
      environment: environment.name || null,
      production: environment.production,
      binding: bindingSource(environment.binding),
    },
    callerIp: opened.callerIp,
  });
  const held = values.relay ? await relayHeldKey(values.relay, values.env!, io.fetch) : null;
  if (held) report.heldKey = held;
  io.stdout(values.json ? JSON.stringify(report, null, 2) : renderTable(report));
  return report.ok ? 0 : 1;
}
