import { z } from 'zod';
import type { TableShape, WorkbookPort } from '../workbook/port';
import { updateSetting } from '../workbook/settings';
import { fingerprint } from './fingerprint';
import { cellPrint } from './tableprint';
import { tableEvidence } from '../evidence/record';

/**
 * What each loaded table holds, stored in the workbook's settings so a refresh (by anyone who opens the
 * file) knows where the data came from. Settings travel with the file: a binding never holds a secret.
 */
export const BINDINGS_KEY = 'grc-sheets.bindings';

// Strict objects: a field we did not plan for (a password someone added) is refused, not carried along.
export const binding = z.strictObject({
  /** The table's name when last seen, for display; the binding follows the table by `tableId`. */
  table: z.string().min(1),
  /** Excel's `Table.id`: unchanged by a rename. Missing in bindings stored before it was kept. */
  tableId: z.string().min(1).optional(),
  /** The environment's name as the relay lists it (ACC, PRD, sandbox ...). */
  environment: z.string().min(1),
  /** Where it was fetched through, for people reading the file: e.g. "relay https://relay.example.com". */
  source: z.string(),
  datasetId: z.string().min(1),
  params: z.strictObject({ guid: z.string().optional() }),
  loadedAt: z.iso.datetime(),
  rowCount: z.number().int().nonnegative(),
  /** The dataset's columns (their headers), in table order; columns a user added are not listed. */
  columns: z.array(z.string()),
  /**
   * The record field of each of `columns`, same order (columnplan.ts). Missing in a table loaded before
   * headers in words: its headers are the field names, and stay so.
   */
  fields: z.array(z.string()).optional(),
  /** Fields the user left out when choosing the columns: a refresh does not add them back. */
  omitted: z.array(z.string()).optional(),
  /** What the last load or refresh received (fingerprint.ts); missing where the host made none. */
  fingerprint: fingerprint.optional(),
  /** What the table's cells held after it (tableprint.ts): hand edits since are found against it. */
  cells: cellPrint.optional(),
  /** Control totals and the relay's signed statement of the last load or refresh (src/evidence/record.ts). */
  evidence: tableEvidence.optional(),
});
export type Binding = z.infer<typeof binding>;

const stored = z.object({ version: z.literal(1), tables: z.record(z.string(), z.unknown()) });

const SECRET_VALUE = /^(basic|bearer|digest)\s+\S|:\/\/[^/@\s]*:[^/@\s]*@/i;

/** Names a credential-looking string in a binding (an Authorization value, a URL with user:password@). */
function secretIn(b: Binding): string | null {
  const strings: [string, string][] = [
    ['environment', b.environment],
    ['source', b.source],
    ['datasetId', b.datasetId],
    ['table', b.table],
    ...Object.entries(b.params).map(([k, v]) => [`params.${k}`, String(v)] as [string, string]),
    ...b.columns.map((c, i) => [`columns[${i}]`, c] as [string, string]),
    ...(b.fields ?? []).map((c, i) => [`fields[${i}]`, c] as [string, string]),
  ];
  return strings.find(([, v]) => SECRET_VALUE.test(v))?.[0] ?? null;
}

export type BindingCheck = { ok: true; binding: Binding } | { ok: false; code: 'binding-refused'; message: string };

/** Checks a binding before it is stored: known fields only, and nothing that looks like a credential. */
export function checkBinding(value: unknown): BindingCheck {
  const parsed = binding.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    return { ok: false, code: 'binding-refused', message: `Not stored in the workbook: the table binding has a field that does not belong there (${where}).` };
  }
  const secret = secretIn(parsed.data);
  if (secret) {
    return { ok: false, code: 'binding-refused', message: `Not stored in the workbook: ${secret} looks like a credential, and the workbook travels with the file.` };
  }
  return { ok: true, binding: parsed.data };
}

/** The bindings stored in the workbook, by table name. Entries that do not check out are left out. */
export async function readBindings(workbook: WorkbookPort): Promise<Map<string, Binding>> {
  return bindingsIn(await workbook.getSetting(BINDINGS_KEY));
}

function bindingsIn(setting: unknown): Map<string, Binding> {
  const parsed = stored.safeParse(setting);
  const out = new Map<string, Binding>();
  if (!parsed.success) return out;
  for (const [table, value] of Object.entries(parsed.data.tables)) {
    const check = checkBinding(value);
    if (check.ok && check.binding.table === table) out.set(table, check.binding);
  }
  return out;
}

/** Changes the stored bindings through the settings queue, so concurrent changes keep each other's entries. */
async function changeBindings(workbook: WorkbookPort, change: (all: Map<string, Binding>) => void): Promise<void> {
  await updateSetting(workbook, BINDINGS_KEY, (current) => {
    const all = bindingsIn(current);
    change(all);
    return { version: 1, tables: Object.fromEntries(all) };
  });
}

export async function saveBinding(workbook: WorkbookPort, value: Binding): Promise<BindingCheck> {
  const check = checkBinding(value);
  if (!check.ok) return check;
  await changeBindings(workbook, (all) => all.set(check.binding.table, check.binding));
  return check;
}

export async function removeBinding(workbook: WorkbookPort, table: string): Promise<void> {
  await changeBindings(workbook, (all) => all.delete(table));
}

/**
 * The stored bindings matched with the workbook's tables, stored again when that changes something: a
 * table renamed since its load keeps its binding under the new name (found by `tableId`); a binding
 * stored before ids were kept gets the id of the table of its name; a binding whose table is gone (the
 * user deleted it) is removed, so it drops out of Tables and Refresh all.
 */
export async function reconcileBindings(workbook: WorkbookPort): Promise<{ bindings: Map<string, Binding>; tables: Map<string, TableShape>; removed: Binding[] }> {
  const tables = await workbook.listTables();
  const byId = new Map(tables.filter((t) => t.id).map((t) => [t.id!, t]));
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  // By id, then by name. Office.js keeps a table's id for the session, not across sessions (as it does not
  // keep worksheet ids), and a saved file holds no Table.id at all (the file adapter gives none): in a
  // workbook opened again, or headless, a binding's id finds nothing and its name is all there is. A table
  // another binding holds by id is not taken by name.
  let claimed = new Set<string>();
  const find = (b: Binding) => (b.tableId ? byId.get(b.tableId) : undefined) ?? [byName.get(b.table.toLowerCase())].find((t) => t && !(t.id && claimed.has(t.id)));
  const removed: Binding[] = [];
  let result = new Map<string, Binding>();
  await changeBindings(workbook, (all) => {
    claimed = new Set([...all.values()].flatMap((b) => (b.tableId && byId.has(b.tableId) ? [b.tableId] : [])));
    const next = new Map<string, Binding>();
    removed.length = 0;
    for (const b of all.values()) {
      const t = find(b);
      if (!t) removed.push(b);
      else next.set(t.name, { ...b, table: t.name, ...(t.id ? { tableId: t.id } : {}) });
    }
    all.clear();
    for (const [k, v] of next) all.set(k, v);
    result = next;
  });
  return { bindings: result, tables: new Map(tables.map((t) => [t.name, t])), removed };
}
