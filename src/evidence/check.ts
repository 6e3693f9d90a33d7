import type { JSONWebKeySet } from 'jose';
import type { LoadRecord } from '../loading/loadrecords';
import type { ReadStatement } from '../contracts/evidence';
import { statementClaims } from './record';
import { checkSignature } from './signature';

/**
 * What `grc-sheets verify` finds of a table's statement: its signature, and that it is the statement of
 * this table's last load (docs/evidence.md, "Verify"). The totals are totals-check.ts (without jose, which
 * the taskpane does not load).
 */
export interface StatementFinding {
  /**
   * verified: signed by a published key and about this load; unchecked: signed, no keys given (--jwks);
   * unsigned: the load kept none; forged / unknown-key / malformed: the signature; other-load: a valid
   * statement of another table or another load.
   */
  status: 'verified' | 'unchecked' | 'unsigned' | 'forged' | 'unknown-key' | 'malformed' | 'other-load' | 'refused-at-load';
  message: string;
  kid?: string;
  claims?: ReadStatement;
}

/** Seconds a load may take between the relay's last byte and the binding's `loadedAt` (a large refresh writes for minutes). */
const LOAD_WINDOW_MS = 60 * 60 * 1000;

/** The statement's claims held against the table's binding: the same dataset, records and load. */
function otherLoad(b: LoadRecord, s: ReadStatement): string | null {
  if (s.kind !== 'read') return 'it is a write receipt, not a read statement';
  if (s.dataset !== b.datasetId) return `it is of dataset ${s.dataset}, and table ${b.table} holds ${b.datasetId}: a statement of another table`;
  if (b.params.guid && !s.path.includes(b.params.guid)) return `it is of ${s.path}, not of the record ${b.params.guid} the table was loaded for`;
  if (b.evidence?.requestId && s.requestId !== b.evidence.requestId) return `it is of request ${s.requestId}, and the table's last load was request ${b.evidence.requestId}: a statement of another load`;
  if (s.records !== b.rowCount) return `it counts ${s.records} records, and the table's last load wrote ${b.rowCount}: a statement of another load`;
  if (b.fingerprint && b.fingerprint.count !== s.records) return `it counts ${s.records} records, and the load's record fingerprint ${b.fingerprint.count}`;
  const gap = Date.parse(b.loadedAt) - Date.parse(s.time);
  if (!(gap >= -5_000 && gap <= LOAD_WINDOW_MS)) return `it was signed ${s.time}, and the table was loaded ${b.loadedAt}: a statement of another load`;
  if (s.status < 200 || s.status > 299) return `the service answered ${s.status} to that download`;
  return null;
}

export async function statementFinding(b: LoadRecord, jwks: JSONWebKeySet | null): Promise<StatementFinding> {
  const jws = b.evidence?.statement;
  if (b.evidence?.problem) return { status: 'refused-at-load', message: `the client found the relay's statement of the last load wrong (${b.evidence.problem}): what was loaded may not be what the service sent` };
  if (!jws) return { status: 'unsigned', message: 'no statement signed by a relay kept (the load went through a relay that signs none)' };
  if (!jwks) {
    const claims = statementClaims(jws);
    const other = claims ? otherLoad(b, claims) : 'its payload is not a read statement';
    return other ? { status: 'other-load', message: `the relay's statement does not belong here: ${other}` } : { status: 'unchecked', message: "a statement signed by the relay is kept, its signature not checked (give the relay's keys with --jwks)", ...(claims ? { claims } : {}) };
  }
  const sig = await checkSignature(jws, jwks);
  if (sig.status !== 'valid') return { status: sig.status, message: `the relay's statement does not verify: ${sig.message}` };
  const claims = sig.payload as ReadStatement;
  const other = otherLoad(b, claims);
  if (other) return { status: 'other-load', message: `the relay's statement does not belong here: ${other}`, kid: sig.kid, claims };
  return { status: 'verified', kid: sig.kid, claims, message: `signed by the relay (key ${sig.kid}) ${claims.time}: ${claims.records.toLocaleString('en-US')} records of ${claims.dataset} from ${claims.environment.name} (${claims.environment.host}), sha256 ${claims.sha256.slice(0, 12)}…` };
}
