import { RELAY_ERROR_HEADER } from '../contracts/environments';
import { policyRefusal } from '../contracts/identity';

/** Where a signed-in caller's access token comes from (renewed first when asked, or when about to expire). */
export interface AccessTokens {
  accessToken(options: { renew: boolean }): Promise<string>;
}

/**
 * The fetch the client uses through a relay that holds the keys, for a person signed in at the taskpane and
 * for a service client of the command line alike: each call carries `Authorization: Bearer <access token>`
 * instead of an API key; the relay checks the token, applies its policy and sends the key it holds. When
 * the relay says the token expired (`token-expired`: its clock and ours differ), the token is renewed and
 * the call sent once more: the relay refused it before forwarding anything, so even a POST is safe to
 * repeat. A policy refusal's body names the rule and whom to ask; the client keeps only an error's
 * message, so both are put into it here, where the body is read.
 */
export function bearerFetch(fetchFn: typeof fetch, tokens: AccessTokens): typeof fetch {
  const send = async (input: Parameters<typeof fetch>[0], init: RequestInit | undefined, renew: boolean) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${await tokens.accessToken({ renew })}`);
    return fetchFn(input, { ...init, headers });
  };
  return async (input, init) => {
    let response = await send(input, init, false);
    if (response.status === 401 && response.headers.get(RELAY_ERROR_HEADER) === 'token-expired') response = await send(input, init, true);
    if (response.headers.get(RELAY_ERROR_HEADER) !== 'policy-refused') return response;
    const body = await response.text();
    let parsed: ReturnType<typeof policyRefusal.safeParse>;
    try {
      parsed = policyRefusal.safeParse(JSON.parse(body));
    } catch {
      return new Response(body, response);
    }
    if (!parsed.success) return new Response(body, response);
    const { message, rule, ask } = parsed.data.error;
    const said = `${message.replace(/\.?\s*$/, '.')} Refused by ${rule} of the relay's policy. To be given access, ask ${ask}.`;
    return new Response(JSON.stringify({ error: { ...parsed.data.error, message: said } }), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
