/**
 * The Authorization header for an API key (spec, Authentication rule 1: Basic, identifier as user name,
 * password as password). Encoded as UTF-8 bytes, so a non-ASCII password does not throw in `btoa`, and
 * without Buffer, so it runs in the browser.
 */
export function basicAuthorization(identifier: string, password: string): string {
  const bytes = new TextEncoder().encode(`${identifier}:${password}`);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `Basic ${btoa(binary)}`;
}
