/**
 * Which request bodies the service takes as JSON: `application/json`, with or without parameters
 * (`; charset=utf-8`). One rule for the sandbox and the relay, so the relay never forwards a body the
 * service (and its emulator) would refuse with 415, such as `application/merge-patch+json` or `text/json`.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
