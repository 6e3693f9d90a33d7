import type { Column } from '../sheet';

/**
 * Which columns identify a record (their headers), so two loads of a dataset can be compared record by record. The
 * catalogue has no separate "key" entry; its record schemas say it by their fields (src/catalog/records.ts):
 * - `Id` (most datasets) or `GUID` (root cause categories), a GUID column: that column alone;
 * - otherwise the GUID columns the record starts with: `RiskGuid` alone (risk custom fields), or
 *   `ThirdPartyGuid` + `CustomFieldId` (one row per record and custom field) together;
 * - otherwise none (finding report assessments): records are compared by their position in the answer,
 *   and the key is "row N" (docs/workbook.md, "Changes").
 */
export function recordKeyColumns(columns: readonly Column[], recordOrder?: readonly string[]): string[] {
  const byName = (n: string) => columns.find((c) => c.known && c.field === n && c.kind === 'guid');
  const single = byName('Id') ?? byName('GUID');
  if (single) return [single.name];
  // The record's order, not the table's: a report puts GUID columns last.
  const at = (c: Column) => (recordOrder ? recordOrder.indexOf(c.field) : 0);
  const ordered = recordOrder ? columns.filter((c) => c.known && at(c) >= 0).sort((a, b) => at(a) - at(b)) : columns;
  const leading: string[] = [];
  for (const c of ordered) {
    if (!c.known || c.kind !== 'guid') break;
    leading.push(c.name);
  }
  return leading;
}

/** A row's key text from its key cells (positions in the row); "row N" (1-based) where there are none. */
export function keyOf(row: readonly unknown[], keyAt: readonly number[], position: number): string {
  if (!keyAt.length) return `row ${position + 1}`;
  if (keyAt.length === 1) return String(row[keyAt[0]!] ?? '');
  return keyAt.map((i) => String(row[i] ?? '')).join(' / ');
}
