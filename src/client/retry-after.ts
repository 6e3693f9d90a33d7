/**
 * Retry-After as milliseconds from `now`: either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; a date in the past gives 0.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
