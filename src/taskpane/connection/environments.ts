import { ENVIRONMENTS_PATH, environmentList, type EnvironmentView } from '../../contracts/environments';

/** One environment of the relay: its production flag, its binding and what each catalogue call is there. */
export type Environment = EnvironmentView;

export type EnvironmentsResult = { ok: true; environments: Environment[] } | { ok: false; message: string };

export async function fetchEnvironments(origin: string, fetchFn: typeof fetch = fetch): Promise<EnvironmentsResult> {
  const url = `${origin}${ENVIRONMENTS_PATH}`;
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch {
    return { ok: false, message: `Could not reach the relay at ${origin}. Check that it runs (npm start starts one) and that this page was opened from it.` };
  }
  if (!response.ok) return { ok: false, message: `The relay answered ${response.status} to GET ${url}. Check the relay's configuration.` };
  const parsed = environmentList.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return { ok: false, message: `The relay's environment list at ${url} is not in the expected form.` };
  if (parsed.data.length === 0) return { ok: false, message: 'The relay has no environments configured. Add one to its configuration file.' };
  return { ok: true, environments: parsed.data };
}

/** Where the client sends calls for an environment: the relay at this page's origin. */
export function environmentBaseUrl(origin: string, environment: string): string {
  return `${origin}/api/${encodeURIComponent(environment)}`;
}
