import { createHash, randomUUID } from 'node:crypto';
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { STATEMENT_TYPE, type ReadStatement } from '../../src/contracts/evidence';
import type { DataRecord, DatasetSource } from '../../src/loading/load';
import { fakeClient } from '../loading/fakeClient';

/**
 * A relay's signing key as the contract has it (src/contracts/evidence.ts): Ed25519, a kid, the public half
 * in a JWKS. Statements made with it are real JWS the verifiers check, of the bytes a client received.
 */
export interface RelayKey {
  kid: string;
  jwk: JWK;
  sign(payload: object): Promise<string>;
}

export async function relayKey(kid: string): Promise<RelayKey> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  return {
    kid,
    jwk,
    sign: (payload) => new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: 'EdDSA', kid, typ: STATEMENT_TYPE }).sign(privateKey as CryptoKey),
  };
}

/** The answer's bytes as a service would send them for these records. */
export const answerBytes = (records: readonly DataRecord[]) => Buffer.from(JSON.stringify(records), 'utf8');

/** A read statement of `records` downloaded from `path` at `time`, as the relay signs it. */
export function readStatement(dataset: string, path: string, records: readonly DataRecord[], time = new Date().toISOString()): ReadStatement {
  const bytes = answerBytes(records);
  return {
    kind: 'read',
    environment: { name: 'ACC', host: 'grc-acc.example.com' },
    time,
    status: 200,
    who: { kind: 'person', subject: 'ann@example.com', name: 'Ann Auditor' },
    rule: 'policy: rule "auditors read"',
    requestId: randomUUID(),
    dataset,
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    length: bytes.length,
    records: records.length,
  };
}

/** The fake client, each download answered with the relay's statement of it (the last one kept in `signed`). */
export function signingClient(key: RelayKey, records: (datasetId: string) => readonly DataRecord[], path: (datasetId: string) => string) {
  const inner = fakeClient(records).client;
  const signed: { statement: string; payload: ReadStatement }[] = [];
  const client: DatasetSource = {
    async download(datasetId, options) {
      const got = await inner.download(datasetId, options);
      const payload = readStatement(datasetId, path(datasetId), records(datasetId));
      const statement = await key.sign(payload);
      signed.push({ statement, payload });
      return { ...got, evidence: { ok: true, statement, kid: key.kid, claims: payload } };
    },
  };
  return { client, signed };
}
