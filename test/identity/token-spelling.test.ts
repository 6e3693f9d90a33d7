/**
 * One token, one spelling, one sign-out key: the canonical check and the key a sign-out is known by.
 * Pure (jose signs and verifies locally); the relay-level refusals are in attacks.test.ts.
 */
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { canonicalJwt, tokenKey } from '../../src/identity/token-spelling';
import { respelt } from './sign-in';

/** The order of P-256: (r, n - s) is a second valid signature for the same content. */
const P256_N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

function ecdsaTwin(token: string): string {
  const at = token.lastIndexOf('.');
  const sig = Buffer.from(token.slice(at + 1), 'base64url');
  const s = BigInt(`0x${sig.subarray(32).toString('hex')}`);
  const twinS = Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex');
  return `${token.slice(0, at + 1)}${Buffer.concat([sig.subarray(0, 32), twinS]).toString('base64url')}`;
}

test('every segment must be canonical unpadded base64url', async () => {
  const { privateKey } = await generateKeyPair('RS256');
  const token = await new SignJWT({ sub: 'riley', jti: 'j1' }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
  expect(canonicalJwt(token)).toBe(true);
  const { lastCharacter, padded } = respelt(token);
  expect(canonicalJwt(lastCharacter)).toBe(false);
  expect(canonicalJwt(padded)).toBe(false);
  const [h, p, s] = token.split('.') as [string, string, string];
  for (const bad of [`${h}=.${p}.${s}`, `${h}.${p}.${s.replace(/-/g, '+')}x`, `${h}.${p}`, `${h}.${p}.`, `${h}.${p}.${s}.x`, `${h}.${p} .${s}`])
    expect(canonicalJwt(bad)).toBe(false);
});

test('an ES256 signature twin verifies, is canonical, and has the same sign-out key', async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const token = await new SignJWT({ sub: 'riley', jti: 'j2' }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
  const twin = ecdsaTwin(token);
  expect(twin).not.toBe(token);
  // Why the key is the signed content, not the signature: WebCrypto accepts the twin.
  await expect(jwtVerify(twin, publicKey)).resolves.toBeTruthy();
  expect(canonicalJwt(twin)).toBe(true);
  expect(tokenKey(twin)).toBe(tokenKey(token));
  const other = await new SignJWT({ sub: 'riley', jti: 'j3' }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
  expect(tokenKey(other)).not.toBe(tokenKey(token));
  // The key is a hash: the token's text is not in it.
  expect(tokenKey(token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
});
