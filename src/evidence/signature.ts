import { compactVerify, createLocalJWKSet, decodeProtectedHeader, errors, type JSONWebKeySet } from 'jose';
import { STATEMENT_TYPE, statementPayload, type StatementPayload } from '../contracts/evidence';

/**
 * A relay statement's signature checked against the relay's published keys (JWKS): Ed25519 (EdDSA) or
 * ES256 only, the key chosen by the statement's `kid`, the payload read as the contract says.
 */
export type SignatureCheck =
  | { status: 'valid'; kid: string; payload: StatementPayload }
  | { status: 'forged' | 'unknown-key' | 'malformed'; message: string };

export async function checkSignature(jws: string, jwks: JSONWebKeySet): Promise<SignatureCheck> {
  let kid = '';
  try {
    const header = decodeProtectedHeader(jws);
    kid = String(header.kid ?? '');
    if (header.typ !== STATEMENT_TYPE) return { status: 'malformed', message: `the statement's type is ${JSON.stringify(header.typ)}, not ${STATEMENT_TYPE}` };
  } catch {
    return { status: 'malformed', message: 'the statement is not a compact JWS' };
  }
  try {
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA', 'Ed25519', 'ES256'] });
    const parsed = statementPayload.safeParse(JSON.parse(new TextDecoder().decode(payload)));
    if (!parsed.success) return { status: 'malformed', message: "the signed payload is not the contract's statement" };
    return { status: 'valid', kid: String(protectedHeader.kid ?? ''), payload: parsed.data };
  } catch (e) {
    if (e instanceof errors.JWKSNoMatchingKey) return { status: 'unknown-key', message: `it is signed with key ${kid || '(no kid)'}, which the relay's published keys do not hold: another relay's key, or a key made up` };
    if (e instanceof errors.JWSSignatureVerificationFailed) return { status: 'forged', message: `its signature does not verify with the relay's key ${kid}: the statement was altered or its signature forged` };
    return { status: 'malformed', message: `its signature cannot be checked (${(e as Error).message})` };
  }
}
