/**
 * A short SHA-256 fingerprint of a key identifier: tells runs by different keys apart without revealing the
 * key. The audit sheet, the command line and the taskpane write it; the relay's held keys are named the same
 * way (`key:` and 12 hex digits).
 */
export async function keyFingerprint(identifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(identifier));
  return `key:${[...new Uint8Array(digest)]
    .slice(0, 6)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')}`;
}
