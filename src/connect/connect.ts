import { createClient, type GrcClient } from '../client';
import { BindingFileError } from '../binding/load';
import type { Environment } from '../environment/environment';
import { unreadableFile } from '../cli/exit';
import { keyFingerprint } from '../client/key-fingerprint';
import type { Actor } from '../writeback/audit';
import { RelayConfigError } from '../relay/config';
import { KEY_ID_VAR, KEY_PASSWORD_VAR, KeyError, readKey, type KeySource } from './key';
import { EnvironmentError, openEnvironment, type EnvironmentSource } from './open';
import { CLIENT_ID_VAR, CLIENT_SECRET_FILE_VAR, CLIENT_SECRET_VAR, serviceClientFrom, serviceSession, ServiceClientError, type ServiceSession } from './service-client';
import { nodeFetch } from './node-fetch';

/**
 * How the commands that work on a saved workbook (refresh, template, post) reach an environment: through the
 * relay (`--relay URL --env NAME`, the relay's binding and fixed address) or straight to the service
 * (`--base-url URL --env NAME [--binding FILE]`, or `--relay-config FILE --env NAME`: the environment as
 * the relay's configuration declares it). `--env` is always given: a table remembers the environment it
 * was loaded from, and a refresh from another one is refused.
 */
export const CONNECT_OPTIONS = {
  relay: { type: 'string' },
  env: { type: 'string' },
  'base-url': { type: 'string' },
  binding: { type: 'string' },
  'relay-config': { type: 'string' },
} as const;

export const CONNECT_HELP = `  --relay URL      the relay (https://relay-host); calls go through it, with its binding
  --env NAME       the environment (as the relay lists it: ACC, PRD ...); with --base-url, the name the
                   workbook's tables were loaded under
  --base-url URL   call the service directly (from a host whose address the key allows)
  --binding FILE   with --base-url: the environment's binding (grc-sheets binding import)
  --relay-config FILE
                   call the service directly, as the relay's configuration file declares environment
                   --env (its baseUrl, binding and production), from the relay's host`;

export const KEY_HELP = `The API key comes from ${KEY_ID_VAR} and ${KEY_PASSWORD_VAR} (for schedulers), or is asked for on a
terminal (the password is not shown). It is never taken on the command line. Through a relay that holds
the keys (sign-in), a scheduler needs no key: set ${CLIENT_ID_VAR} and ${CLIENT_SECRET_FILE_VAR} (or
${CLIENT_SECRET_VAR}), its service client at the relay's sign-in provider (client credentials).`;

export class ConnectError extends Error {
  override name = 'ConnectError';
  constructor(
    message: string,
    /** A wrong command line (exit 2) rather than a failure to reach the environment (exit 1). */
    readonly usage: boolean,
  ) {
    super(message);
  }
}

/** `env` holds, besides the key's variables, GRC_SHEETS_CLIENT_ID and its secret (service-client.ts). */
export interface ConnectIo extends KeySource {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch: typeof globalThis.fetch;
}

export interface Connection {
  client: GrcClient;
  /**
   * The environment, built the one way the relay and the taskpane build it (src/environment): its binding,
   * the catalogue the client was made with, the view write-back reads, and the production flag as declared
   * (null when nothing declares it: --base-url, or a configuration file without the field; its view then
   * says false, as before, for the commands that only read).
   */
  bound: Environment;
  /** The environment's name as the command line gives it. */
  environment: string;
  /** Recorded in the workbook's table bindings for readers of the file. */
  source: string;
  /** The service's URL when it is called directly (not through a relay). */
  directUrl: string | null;
  /** The key's short fingerprint, as the audit sheet names it (never the key). */
  keyFingerprint: string;
  /** A service client's run through a relay that holds the key: who the relay took it for (the audit's "Who"). */
  actor?: Actor;
}

/**
 * The credentials of an unattended run: the environment's API key from the environment variables, else,
 * through a relay that holds the keys, a service client's own token (service-client.ts; the relay adds the
 * key), else the key asked for on the terminal.
 */
async function credentials(
  io: ConnectIo,
  relay: string | undefined,
): Promise<{ key: { identifier: string; password: string } } | { service: ServiceSession }> {
  const keyGiven = Boolean(io.env[KEY_ID_VAR]?.trim() && io.env[KEY_PASSWORD_VAR]);
  const service = keyGiven ? null : serviceClientFrom(io.env);
  if (service && !relay)
    throw new ServiceClientError(`${CLIENT_ID_VAR} is for a relay that holds the keys (--relay URL); straight to the service an API key is needed (${KEY_ID_VAR} and ${KEY_PASSWORD_VAR}).`, true);
  if (service) return { service: await serviceSession(relay!, service, io.env, io.fetch) };
  try {
    return { key: await readKey(io) };
  } catch (e) {
    if (e instanceof KeyError && relay)
      throw new KeyError(`${e.message} Or, through a relay that holds the keys, set ${CLIENT_ID_VAR} and ${CLIENT_SECRET_FILE_VAR} (or ${CLIENT_SECRET_VAR}) for a service client.`);
    throw e;
  }
}

export async function connectEnvironment(
  values: { relay?: string; env?: string; 'base-url'?: string; binding?: string; 'relay-config'?: string },
  io: ConnectIo,
): Promise<Connection> {
  const ways = [values.relay && '--relay', values['base-url'] && '--base-url', values['relay-config'] && '--relay-config'].filter(Boolean);
  if (ways.length > 1) throw new ConnectError(`give one of --relay URL, --base-url URL or --relay-config FILE, not ${ways.join(' and ')}`, true);
  if (ways.length === 0) throw new ConnectError('give --relay URL --env NAME, --base-url URL --env NAME, or --relay-config FILE --env NAME', true);
  if (!values.env) throw new ConnectError('--env NAME is needed: the environment the tables were loaded from (ACC, PRD ...)', true);
  if (values.relay && values.binding) throw new ConnectError("--binding is for --base-url; through the relay the relay's binding is used", true);
  if (values['relay-config'] && values.binding) throw new ConnectError("--binding is for --base-url; with --relay-config the environment's binding in that file is used", true);
  // Said in words, before the key is asked for.
  const files = [
    ['--relay-config', values['relay-config'], "the relay's configuration file (relay.example.json shows its format)"],
    ['--binding', values.binding, 'the binding file grc-sheets binding import wrote'],
  ] as const;
  for (const [option, file, what] of files) {
    const problem = file === undefined ? null : unreadableFile(file, what);
    if (problem) throw new ConnectError(`${option} ${problem}`, true);
  }
  let given;
  try {
    given = await credentials(io, values.relay);
  } catch (e) {
    if (e instanceof KeyError) throw new ConnectError(e.message, true);
    if (e instanceof ServiceClientError) throw new ConnectError(e.message, e.usage);
    throw e;
  }
  const service = 'service' in given ? given.service : null;
  const fetchFn = service ? service.fetch : io.fetch;
  if (service && !service.me.may.environments.includes(values.env))
    throw new ConnectError(
      service.me.may.environments.length
        ? `the relay's policy does not give ${service.me.name} the environment "${values.env}" (its rules give ${service.me.may.environments.join(', ')}); ask the relay's administrators for a rule for its roles (${service.me.groups.join(', ') || 'none'}) on ${values.env}.`
        : `no rule of the relay's policy is for ${service.me.name} (its roles: ${service.me.groups.join(', ') || 'none'}): ask the relay's administrators for a policy rule for its app role, or assign the client a role a rule names. Nothing was read or written.`,
      false,
    );
  const source: EnvironmentSource = values.relay
    ? { via: 'relay', relay: values.relay, name: values.env }
    : values['relay-config']
      ? { via: 'relay-config', file: values['relay-config'], name: values.env, env: io.env }
      : { via: 'direct', baseUrl: values['base-url']!, name: values.env, binding: values.binding ?? null };
  let opened;
  try {
    opened = await openEnvironment(source, fetchFn);
  } catch (e) {
    if (e instanceof EnvironmentError) throw new ConnectError(e.message, e.usage);
    if (e instanceof RelayConfigError) throw new ConnectError(`--relay-config: ${e.message}`, true);
    if (e instanceof BindingFileError) throw new ConnectError(`--binding ${e.message}`, true);
    throw e;
  }
  try {
    // With a service token the client's Basic credentials are never sent: the bearer fetch replaces the header.
    const client = createClient({
      baseUrl: opened.baseUrl,
      credentials: 'key' in given ? given.key : { identifier: '', password: '' },
      catalog: opened.environment.catalog,
      fetch: (input, init) => fetchFn(input, init),
    });
    return {
      client,
      bound: opened.environment,
      directUrl: opened.via === 'relay' ? null : opened.url,
      environment: values.env,
      keyFingerprint: 'key' in given ? await keyFingerprint(given.key.identifier) : (service!.me.keys[values.env] ?? 'key held by the relay'),
      ...(service ? { actor: { subject: service.me.subject, name: service.me.name } } : {}),
      source: `${opened.via} ${opened.url}`,
    };
  } catch (e) {
    throw new ConnectError((e as Error).message, true);
  }
}

/** The process's environment, terminal and network, as the workbook commands (refresh, template, post) use them. */
export const processIo = (): ConnectIo => ({
  env: process.env,
  stdout: (t) => process.stdout.write(`${t}\n`),
  stderr: (t) => process.stderr.write(`${t}\n`),
  ...(process.stdin.isTTY ? { tty: { input: process.stdin, output: process.stderr } } : {}),
  // A write through undici's request API, the rest through Node's fetch (node-fetch.ts says why).
  fetch: nodeFetch(),
});
