import { createHash } from 'node:crypto';

/**
 * One spelling per token. Base64url has several spellings of the same bytes (the unused low bits of the
 * last character, `=` padding), and a JWT library decodes them all alike, so a token re-spelt that way
 * still verifies. The relay accepts only the canonical spelling (unpadded base64url whose text is exactly
 * what its bytes encode to) in every segment, and knows a token by what it signs, not by its text.
 */

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** True when every one of the three segments is canonical unpadded base64url. */
export function canonicalJwt(token: string): boolean {
  const segments = token.split('.');
  if (segments.length !== 3) return false;
  return segments.every((s) => BASE64URL.test(s) && Buffer.from(s, 'base64url').toString('base64url') === s);
}

/**
 * What a sign-out is known by, here and at the other relays: a hash of the signed content (header and
 * payload, which hold issuer, subject, jti and expiry). Spelling cannot change it, and neither can a
 * second valid signature over the same content (an ECDSA signature's (r, n - s) twin): every spelling and
 * every signature of one token is one sign-out. Never the token itself. For a canonical token only.
 */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token.slice(0, token.lastIndexOf('.'))).digest('base64url');
}
