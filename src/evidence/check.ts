import type { JSONWebKeySet } from 'jose';
import type { LoadRecord } from '../loading/loadrecords';
import type { ReadStatement } from '../contracts/evidence';
import { datasetsRead, registerOf } from '../register/registers';
import { statementClaims, type PartEvidence } from './record';
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
   * statement of another table or another load; incomplete: a register whose datasets' statements are
   * not all kept (one removed) where the others are.
   */
  status: 'verified' | 'unchecked' | 'unsigned' | 'forged' | 'unknown-key' | 'malformed' | 'other-load' | 'refused-at-load' | 'incomplete';
  message: string;
  kid?: string;
  claims?: ReadStatement;
  /** A register: the finding of each dataset it read (docs/evidence.md "Registers"). */
  parts?: (Omit<StatementFinding, 'parts'> & { dataset: string })[];
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

/** A register's part statement held against the part it is kept for and the table's last load. */
function otherPartLoad(b: LoadRecord, part: PartEvidence, s: ReadStatement, main: boolean): string | null {
  if (s.kind !== 'read') return 'it is a write receipt, not a read statement';
  if (s.dataset !== part.dataset) return `it is of dataset ${s.dataset}, not ${part.dataset}: a statement of another read`;
  if (part.requestId && s.requestId !== part.requestId) return `it is of request ${s.requestId}, and the last load read ${part.dataset} in request ${part.requestId}: a statement of another load`;
  if (main && s.records !== b.rowCount) return `it counts ${s.records} records, and the table's last load wrote ${b.rowCount}: a statement of another load`;
  const gap = Date.parse(b.loadedAt) - Date.parse(s.time);
  if (!(gap >= -5_000 && gap <= LOAD_WINDOW_MS)) return `it was signed ${s.time}, and the table was loaded ${b.loadedAt}: a statement of another load`;
  if (s.status < 200 || s.status > 299) return `the service answered ${s.status} to that download`;
  return null;
}

async function partFinding(b: LoadRecord, part: PartEvidence, jwks: JSONWebKeySet | null, main: boolean): Promise<NonNullable<StatementFinding['parts']>[number]> {
  const of = `the relay's statement of ${part.dataset}`;
  if (part.problem) return { dataset: part.dataset, status: 'refused-at-load', message: `the client found ${of} wrong at load (${part.problem})` };
  if (!part.statement) return { dataset: part.dataset, status: 'unsigned', message: `no statement of ${part.dataset} kept` };
  let claims = statementClaims(part.statement);
  let kid: string | undefined;
  if (jwks) {
    const sig = await checkSignature(part.statement, jwks);
    if (sig.status !== 'valid') return { dataset: part.dataset, status: sig.status, message: `${of} does not verify: ${sig.message}` };
    kid = sig.kid;
    claims = sig.payload as ReadStatement;
  }
  const other = claims ? otherPartLoad(b, part, claims, main) : 'its payload is not a read statement';
  const known = { dataset: part.dataset, ...(kid ? { kid } : {}), ...(claims ? { claims } : {}) };
  if (other) return { ...known, status: 'other-load', message: `${of} does not belong here: ${other}` };
  return { ...known, status: jwks ? 'verified' : 'unchecked', message: `${part.dataset}: ${claims!.records.toLocaleString('en-US')} records, sha256 ${claims!.sha256.slice(0, 12)}…` };
}

/**
 * A register's statements, one per dataset it read: each checked as a plain table's, and together they
 * must be the datasets the register reads, all signed or none.
 */
async function partsFinding(b: LoadRecord, parts: readonly PartEvidence[], jwks: JSONWebKeySet | null): Promise<StatementFinding> {
  const register = registerOf(b.datasetId)?.register;
  const main = register?.main;
  const found = await Promise.all(parts.map((p) => partFinding(b, p, jwks, p.dataset === main)));
  const signed = found.filter((f) => f.status !== 'unsigned');
  const missing = (register ? datasetsRead(register) : []).filter((d) => !parts.some((p) => p.dataset === d));
  const bad = found.find((f) => !['verified', 'unchecked', 'unsigned'].includes(f.status));
  if (bad) return { status: bad.status, message: bad.message, parts: found };
  if (!signed.length && !missing.length) return { status: 'unsigned', message: `no statement signed by a relay kept for the ${parts.length} datasets the register read (the load went through a relay that signs none)`, parts: found };
  const unsigned = [...found.filter((f) => f.status === 'unsigned').map((f) => f.dataset), ...missing];
  if (!signed.length || unsigned.length)
    return { status: 'incomplete', message: `the relay's statements of the datasets the register read are incomplete: ${unsigned.join(', ')} ${unsigned.length === 1 ? 'has' : 'have'} none${signed.length ? `, where ${signed.map((f) => f.dataset).join(', ')} ${signed.length === 1 ? 'is' : 'are'} signed` : ''}: removed from the workbook`, parts: found };
  const kids = [...new Set(found.map((f) => f.kid).filter(Boolean))];
  const first = found.find((f) => f.dataset === main) ?? found[0]!;
  const what = `${found.length} datasets the register read (${found.map((f) => f.message).join('; ')}); each covers what the service answered, the join is the client's (covered by the cell fingerprint and totals)`;
  return jwks
    ? { status: 'verified', message: `signed by the relay (key ${kids.join(', ')}) ${first.claims!.time}: the ${what}`, ...(first.kid ? { kid: first.kid } : {}), claims: first.claims!, parts: found }
    : { status: 'unchecked', message: `statements signed by the relay are kept for the ${what}; their signatures not checked (give the relay's keys with --jwks)`, claims: first.claims!, parts: found };
}

export async function statementFinding(b: LoadRecord, jwks: JSONWebKeySet | null): Promise<StatementFinding> {
  if (b.evidence?.parts) return partsFinding(b, b.evidence.parts, jwks);
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
