import { loadBinding } from '../binding/load';
import type { Binding } from '../catalog';
import { environmentFrom, relayListed, type Environment } from '../environment/environment';
import { readRelayEnvironment, readRelayList, relayBaseUrl, type RelayAnswer } from '../environment/relay-list';
import { configuredEnvironment } from './configured';

/**
 * What a command is given to reach an environment, each way a user has: the relay (`--relay URL --env`),
 * the relay's configuration file on the relay's host (`--relay-config FILE --env`), or the service itself
 * with the environment's binding file (`--base-url URL [--binding FILE]`).
 */
export type EnvironmentSource =
  | { via: 'relay'; relay: string; name: string }
  | { via: 'relay-config'; file: string; name: string; env: Record<string, string | undefined> }
  | { via: 'direct'; baseUrl: string; name: string | null; binding: string | null };

/** An environment as a command reaches it: built by environmentFrom, and where its calls go. */
export interface OpenedEnvironment {
  environment: Environment;
  /** The API root the client calls: the relay's `/api/<env>` or the service's base URL. */
  baseUrl: string;
  via: 'relay' | 'direct';
  /** The relay's or the service's URL (never with credentials). */
  url: string;
  /** The address the service sees the calls come from, when the relay says it (its egressIp). */
  callerIp: string | null;
}

/** The relay could not say what it knows of the environment (unreachable, another program, no such environment). */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
  /** A name the relay does not have: a wrong option (exit 2), not a relay that failed (exit 1). */
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** Where a binding came from, as reports name it: its file and hash. */
export const bindingSource = (b: Binding | null) => (b ? { file: b.source.file, sha256: b.source.sha256 } : null);

/**
 * Builds the environment from whatever the user gave, the same way the relay and the taskpane do: through
 * the relay, from the binding the relay sends with its environments; otherwise from the binding file the
 * configuration or the command line names. Throws EnvironmentError, RelayConfigError or BindingFileError.
 */
export async function openEnvironment(source: EnvironmentSource, fetchFn: typeof fetch): Promise<OpenedEnvironment> {
  if (source.via === 'relay') {
    const root = source.relay.replace(/\/+$/, '');
    const list = await readRelayList(root, fetchFn);
    if (!list.ok) throw relayProblem(root, list);
    const names = list.environments.map((e) => e.name);
    if (!names.includes(source.name)) {
      const near = names.find((n) => n.toLowerCase() === source.name.toLowerCase());
      throw new EnvironmentError(
        `the relay has no environment "${source.name}"; it has ${names.join(', ') || 'none'}${near ? ` (names are matched as written: --env ${near})` : ''}`,
        true,
      );
    }
    // The binding comes with the one environment's view, not with the list.
    const one = await readRelayEnvironment(root, source.name, fetchFn);
    if (!one.ok) throw relayProblem(root, one);
    const { view } = one;
    return { environment: relayListed(view), baseUrl: relayBaseUrl(root, source.name), via: 'relay', url: root, callerIp: view.egressIp ?? null };
  }
  if (source.via === 'relay-config') {
    const declared = configuredEnvironment(source.file, source.name, source.env);
    const environment = environmentFrom({ name: source.name, binding: declared.binding, production: declared.production });
    return { environment, baseUrl: declared.url, via: 'direct', url: declared.url, callerIp: null };
  }
  const url = source.baseUrl.replace(/\/+$/, '');
  const binding = source.binding ? loadBinding(source.binding) : null;
  // Nothing declares a base URL's production flag: production.ts asks the sandbox, a post asks the user.
  const environment = environmentFrom({ name: source.name ?? '', binding, production: null });
  return { environment, baseUrl: url, via: 'direct', url, callerIp: null };
}

/** What the relay answered instead of an environment, in the command's words. */
function relayProblem(root: string, answer: Extract<RelayAnswer<object>, { ok: false }>): EnvironmentError {
  switch (answer.problem) {
    case 'unreachable':
      return new EnvironmentError(`cannot reach the relay at ${root}: ${answer.detail}`);
    case 'status':
      return new EnvironmentError(
        `the relay at ${root} answered ${answer.status} to GET ${answer.url.slice(root.length)}${answer.message ? `: ${answer.message}` : ''}`,
      );
    case 'not-a-relay':
      return new EnvironmentError(`${answer.url} is not the answer of a grc-sheets relay of this version`);
  }
}
