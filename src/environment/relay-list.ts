import { ENVIRONMENTS_PATH, environmentList, type EnvironmentView } from '../contracts/environments';

/**
 * The relay's GET /api/environments, read the same way by the taskpane and the commands. A failure is data
 * (what went wrong and what the relay answered); each door says it in its own words.
 */
export type RelayList =
  | { ok: true; url: string; environments: EnvironmentView[] }
  | { ok: false; url: string; problem: 'unreachable'; detail: string }
  | { ok: false; url: string; problem: 'status'; status: number }
  | { ok: false; url: string; problem: 'not-a-relay' };

export async function readRelayList(origin: string, fetchFn: typeof fetch): Promise<RelayList> {
  const url = `${origin.replace(/\/+$/, '')}${ENVIRONMENTS_PATH}`;
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (e) {
    return { ok: false, url, problem: 'unreachable', detail: (e as Error).message };
  }
  if (!response.ok) return { ok: false, url, problem: 'status', status: response.status };
  const parsed = environmentList.safeParse(await response.json().catch(() => null));
  return parsed.success ? { ok: true, url, environments: parsed.data } : { ok: false, url, problem: 'not-a-relay' };
}

/** Where the client sends an environment's calls through the relay at `origin`. */
export const relayBaseUrl = (origin: string, environment: string): string =>
  `${origin.replace(/\/+$/, '')}/api/${encodeURIComponent(environment)}`;
