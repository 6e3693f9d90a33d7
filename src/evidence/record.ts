import { z } from 'zod';
import { readStatement, type ReadStatement } from '../contracts/evidence';
import { registerOf } from '../register/registers';
import type { Cell } from '../sheet/cell-types';
import { controlTotals, totaller, totalKindOf, type ControlTotals, type Totaller } from './totals';

/**
 * The relay's statement of one dataset a register read for its last load (docs/evidence.md "Registers"):
 * as a plain table's, kept when the client's check of it passed, else why not.
 */
export const partEvidence = z.strictObject({
  dataset: z.string(),
  statement: z.string().optional(),
  requestId: z.string().optional(),
  problem: z.string().optional(),
});
export type PartEvidence = z.infer<typeof partEvidence>;

/**
 * The evidence a table's binding keeps of its last load or refresh (docs/evidence.md): the control totals
 * of the rows it wrote and, when it was loaded through a relay that signs, the relay's read statement of
 * the download as the relay signed it (a compact JWS: only the relay's key makes a valid one, so editing
 * the workbook cannot make one up). The record fingerprint and the cell print stay where they were
 * (binding.fingerprint, binding.cells).
 */
export const tableEvidence = z.strictObject({
  totals: controlTotals,
  /** The relay's read statement of this load's download, compact JWS. */
  statement: z.string().optional(),
  /**
   * The statement's request id, kept beside it when the load took it: a statement copied in from another
   * table's load, or from an older load of this table, has another.
   */
  requestId: z.string().optional(),
  /** Why the load kept no statement: the client's check of it failed (hash mismatch, unavailable ...). */
  problem: z.string().optional(),
  /**
   * A register (src/register): no one statement covers the joined table, so the statement of each dataset it
   * read for this load, in the order read. Each covers what the service answered for that dataset, not the join.
   */
  parts: z.array(partEvidence).optional(),
});
export type TableEvidence = z.infer<typeof tableEvidence>;

/** A compact JWS's payload read without checking its signature (what it claims; verify.ts checks it). */
export function statementClaims(jws: string): ReadStatement | null {
  const part = jws.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    // atob: the taskpane has no Buffer.
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
    const parsed = readStatement.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The statement that says when and for whom a table was loaded: a plain table's, or the one of the main
 * dataset a register read (its other parts were read in the same load).
 */
export function leadStatement(datasetId: string, e: TableEvidence | undefined): string | undefined {
  if (!e?.parts) return e?.statement;
  const main = registerOf(datasetId)?.register.main;
  return e.parts.find((p) => p.dataset === main)?.statement;
}

/** A register's statements at load, in words: how many of the datasets it read are signed, and what was refused. */
export function partsAtLoad(parts: readonly PartEvidence[]): { signed: number; refused?: { dataset: string; problem: string }; unsigned: string[] } {
  const refused = parts.find((p) => p.problem);
  return { signed: parts.filter((p) => p.statement).length, ...(refused ? { refused: { dataset: refused.dataset, problem: refused.problem! } } : {}), unsigned: parts.filter((p) => !p.statement && !p.problem).map((p) => p.dataset) };
}

/** The date and date-time columns of a column model: compared at the millisecond. */
export const dateColumns = (columns: readonly { name: string; kind: string }[]): string[] => columns.filter((c) => totalKindOf(c.kind) === 'date').map((c) => c.name);

/** Control totals fed the rows a load writes, in the order of `columns`. */
export const loadTotaller = (columns: readonly { name: string; kind: string }[]): Totaller => totaller(columns.map((c) => ({ name: c.name, kind: totalKindOf(c.kind) })));

/**
 * What the client says of a download's statement (src/client/statement-check.ts, EvidenceCheck): the
 * compact JWS when its signature and its hash, length and records are the bytes received; otherwise why not.
 */
export interface DownloadEvidence {
  ok: boolean;
  statement?: string;
  code?: string;
  message?: string;
  /** A register's download: what the client said of each dataset it read (`ok` and the rest then say nothing). */
  parts?: (DownloadEvidence & { dataset: string })[];
}

/** What a load keeps of one download's statement: the statement when the client's check passed, else why not. */
function keptOf(download: DownloadEvidence | undefined): Pick<TableEvidence, 'statement' | 'requestId' | 'problem'> {
  const statement = download?.ok ? download.statement : undefined;
  const claims = statement ? statementClaims(statement) : null;
  const problem = download && !download.ok && download.code !== 'unsigned' ? `${download.code ?? 'error'}: ${download.message ?? ''}`.trim() : undefined;
  return { ...(statement ? { statement } : {}), ...(claims ? { requestId: claims.requestId } : {}), ...(problem ? { problem } : {}) };
}

/**
 * The evidence of one load: its totals and, when the client checked it, the relay's statement. A statement
 * the client found wrong is not kept (verify would only call it what the client already did): the reason is.
 */
export function evidenceOf(totals: ControlTotals, download: DownloadEvidence | undefined): TableEvidence {
  if (download?.parts) return { totals, parts: download.parts.map((p) => ({ dataset: p.dataset, ...keptOf(p) })) };
  return { totals, ...keptOf(download) };
}

/** Totals of rows already held (a refresh writes them all at once). */
export function totalsOfRows(columns: readonly { name: string; kind: string }[], rows: readonly (readonly Cell[])[]): ControlTotals {
  const t = loadTotaller(columns);
  for (const r of rows) t.add(r);
  return t.done();
}
