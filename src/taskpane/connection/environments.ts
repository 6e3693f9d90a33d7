import type { EnvironmentSummary, EnvironmentView } from '../../contracts/environments';
import { readRelayEnvironment, readRelayList, relayBaseUrl } from '../../environment/relay-list';

/** One environment of the relay as the list names it at start: its name and production flag. */
export type EnvironmentChoice = EnvironmentSummary;

/** One environment once connected: its production flag, its binding and what each catalogue call is there. */
export type Environment = EnvironmentView;

export type EnvironmentsResult = { ok: true; environments: EnvironmentChoice[] } | { ok: false; message: string };

export async function fetchEnvironments(origin: string, fetchFn: typeof fetch = fetch): Promise<EnvironmentsResult> {
  const list = await readRelayList(origin, fetchFn);
  if (!list.ok) {
    switch (list.problem) {
      case 'unreachable':
        return { ok: false, message: `Could not reach the relay at ${origin}. Check that it runs (npm start starts one) and that this page was opened from it.` };
      case 'status':
        return { ok: false, message: `The relay answered ${list.status} to GET ${list.url}. Check the relay's configuration.` };
      case 'not-a-relay':
        return { ok: false, message: `The relay's environment list at ${list.url} is not in the expected form.` };
    }
  }
  if (list.environments.length === 0) return { ok: false, message: 'The relay has no environments configured. Add one to its configuration file.' };
  return { ok: true, environments: list.environments };
}

/**
 * The whole view of the environment being connected to (its binding), read when the user picks it rather
 * than at start; `fetchFn` is the signed-in fetch where the person signed in.
 */
export async function fetchEnvironment(
  origin: string,
  name: string,
  fetchFn: typeof fetch = fetch,
): Promise<{ ok: true; environment: Environment } | { ok: false; message: string }> {
  const one = await readRelayEnvironment(origin, name, fetchFn);
  if (one.ok) return { ok: true, environment: one.view };
  switch (one.problem) {
    case 'unreachable':
      return { ok: false, message: `Could not reach the relay at ${origin} for ${name}'s settings: ${one.detail}` };
    case 'status':
      return { ok: false, message: one.message ?? `The relay answered ${one.status} to GET ${one.url}. Check the relay's configuration.` };
    case 'not-a-relay':
      return { ok: false, message: `The relay's settings of ${name} at ${one.url} are not in the expected form.` };
  }
}

/** Where the client sends calls for an environment: the relay at this page's origin. */
export const environmentBaseUrl = relayBaseUrl;
