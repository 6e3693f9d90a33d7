import type { AuthConfig } from '../connection/access';

/**
 * sign-in.html?start=<url> sends the window on to `url`: only to the provider the relay names, so the page
 * cannot be used to send people anywhere else from the add-in's own address (an open redirect).
 * Returns the URL to go to, or why not.
 */
export function checkStart(start: string, config: AuthConfig | null): { ok: true; url: string } | { ok: false; message: string } {
  if (typeof config?.signIn?.issuer !== 'string') return { ok: false, message: 'This relay offers no sign-in, so this page has nowhere to send you.' };
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    return { ok: false, message: 'The sign-in link is damaged. Close this window and press Sign in again in the add-in.' };
  }
  let issuer: URL;
  try {
    issuer = new URL(config.signIn.issuer);
  } catch {
    return { ok: false, message: "The relay's sign-in settings name no valid provider address." };
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  if (url.origin !== issuer.origin || !secure)
    return { ok: false, message: `The sign-in link does not lead to this relay's provider (${issuer.origin}), so it was not followed.` };
  return { ok: true, url: url.href };
}

/** Whether the provider has sent the window back here (with a code, or with an error). */
export function isCallback(search: URLSearchParams): boolean {
  return search.has('state') || search.has('code') || search.has('error');
}
