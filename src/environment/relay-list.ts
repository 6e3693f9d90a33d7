import {
  ENVIRONMENTS_PATH,
  environmentPath,
  environmentSummaries,
  environmentView,
  type EnvironmentSummary,
  type EnvironmentView,
} from '../contracts/environments';

/**
 * The relay's GET /api/environments (the summaries) and GET /api/environments/<name> (one environment's
 * view, with its binding), read the same way by the taskpane and the commands. A failure is data (what
 * went wrong and what the relay answered); each door says it in its own words.
 */
export type RelayAnswer<T> =
  | ({ ok: true; url: string } & T)
  | { ok: false; url: string; problem: 'unreachable'; detail: string }
  | { ok: false; url: string; problem: 'status'; status: number; code?: string; message?: string }
  | { ok: false; url: string; problem: 'not-a-relay' };

export type RelayList = RelayAnswer<{ environments: EnvironmentSummary[] }>;
export type RelayEnvironment = RelayAnswer<{ view: EnvironmentView }>;

async function readRelay<T>(
  url: string,
  fetchFn: typeof fetch,
  parse: (body: unknown) => T | null,
): Promise<RelayAnswer<T>> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (e) {
    return { ok: false, url, problem: 'unreachable', detail: (e as Error).message };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    // The relay's refusal (sign in, the policy): its code and words, for the door to show.
    const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    return {
      ok: false,
      url,
      problem: 'status',
      status: response.status,
      ...(typeof error?.code === 'string' ? { code: error.code } : {}),
      ...(typeof error?.message === 'string' ? { message: error.message } : {}),
    };
  }
  const parsed = parse(body);
  return parsed ? { ok: true, url, ...parsed } : { ok: false, url, problem: 'not-a-relay' };
}

const root = (origin: string) => origin.replace(/\/+$/, '');

export function readRelayList(origin: string, fetchFn: typeof fetch): Promise<RelayList> {
  return readRelay(`${root(origin)}${ENVIRONMENTS_PATH}`, fetchFn, (body) => {
    const parsed = environmentSummaries.safeParse(body);
    return parsed.success ? { environments: parsed.data } : null;
  });
}

/** One environment's view; `fetchFn` carries the caller's sign-in where the relay has one. */
export function readRelayEnvironment(origin: string, name: string, fetchFn: typeof fetch): Promise<RelayEnvironment> {
  return readRelay(`${root(origin)}${environmentPath(name)}`, fetchFn, (body) => {
    const parsed = environmentView.safeParse(body);
    return parsed.success && parsed.data.name === name ? { view: parsed.data } : null;
  });
}

/** Where the client sends an environment's calls through the relay at `origin`. */
export const relayBaseUrl = (origin: string, environment: string): string =>
  `${root(origin)}/api/${encodeURIComponent(environment)}`;
