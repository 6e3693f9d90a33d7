/**
 * Follows a provider's authorization URL as a browser would (redirects, cookies, the login form) with a
 * user name and password, and returns the URL the provider sends the browser back to (redirect URI with
 * code and state). The demo provider's real pages; no shortcut into it.
 */
export async function walkLogin(authorizationUrl: string, redirectUri: string, login: string, password: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).toString();
      if (next.startsWith(redirectUri)) return next;
      url = next;
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the login stopped at ${url}: ${response.status} ${html.slice(0, 200)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).toString();
    form = new URLSearchParams({ login, password });
  }
  throw new Error('the login went round in circles');
}
