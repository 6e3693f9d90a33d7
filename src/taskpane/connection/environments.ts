import type { EnvironmentView } from '../../contracts/environments';
import { readRelayList, relayBaseUrl } from '../../environment/relay-list';

/** One environment of the relay: its production flag, its binding and what each catalogue call is there. */
export type Environment = EnvironmentView;

export type EnvironmentsResult = { ok: true; environments: Environment[] } | { ok: false; message: string };

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

/** Where the client sends calls for an environment: the relay at this page's origin. */
export const environmentBaseUrl = relayBaseUrl;
