import { AUTH_CONFIG_PATH, authConfig, ME_PATH, me, type AuthConfig, type Me } from './access';

/** A relay that predates sign-in has no /api/auth/config: it offers personal keys only. */
const PERSONAL_KEYS_ONLY: AuthConfig = { personalKeys: true, signIn: null };

export type AuthConfigResult = { ok: true; config: AuthConfig } | { ok: false; message: string };

export async function fetchAuthConfig(origin: string, fetchFn: typeof fetch): Promise<AuthConfigResult> {
  const url = `${origin}${AUTH_CONFIG_PATH}`;
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch {
    return { ok: false, message: `Could not reach the relay at ${origin}.` };
  }
  if (response.status === 404) return { ok: true, config: PERSONAL_KEYS_ONLY };
  if (!response.ok) return { ok: false, message: `The relay answered ${response.status} to GET ${url}. Check the relay's configuration.` };
  const parsed = authConfig.safeParse(await response.json().catch(() => null));
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, message: `The relay's sign-in settings at ${url} are not in the expected form.` };
}

/** Who the relay takes the signed-in person for, and what its policy lets them do. `fetchFn` adds the token. */
export async function fetchMe(origin: string, fetchFn: typeof fetch): Promise<Me> {
  const url = `${origin}${ME_PATH}`;
  const response = await fetchFn(url, { headers: { accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const said = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new Error(`The relay did not accept the sign-in (${response.status})${typeof said === 'string' ? `: ${said}` : '.'}`);
  }
  const parsed = me.safeParse(body);
  if (!parsed.success) throw new Error(`The relay's answer at ${url} is not in the expected form.`);
  return parsed.data;
}
