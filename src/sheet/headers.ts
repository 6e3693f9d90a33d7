import type { Column } from './columns';

/**
 * Headers in words, the spec's way of naming fields ("Reporting organization", "Date detected", "Gross
 * likelihood"), for tables loaded since headers in words came in. A table loaded before keeps the API's
 * property names as headers (its record says which: `fields` in bindings.ts), so formulas and pivot
 * tables written against it keep working.
 */

/** Words written in capitals whatever their place: the spec spells them so. */
const CAPITALS: Readonly<Record<string, string>> = { guid: 'GUID', guids: 'GUIDs', id: 'ID', ids: 'IDs', moi: 'MOI', mois: 'MOIs', kri: 'KRI', kris: 'KRIs', lei: 'LEI', bim: 'BIM', url: 'URL', api: 'API' };

/**
 * The record's own identifier: a GUID the service gives every record. "GUID" says what the cells hold
 * (an "Id" column beside "Identifier" reads as the same thing twice).
 */
const WHOLE: Readonly<Record<string, string>> = { Id: 'GUID' };

/** A field name that already reads as words (a custom field named by its definition): kept as it is. */
const inWords = (field: string) => /[^A-Za-z0-9_]/.test(field);

/** "RootCauseCategoryGuids" -> "Root cause category GUIDs"; "ParentGUID" -> "Parent GUID". */
export function headerWords(field: string): string {
  if (inWords(field)) return field;
  const whole = WHOLE[field];
  if (whole) return whole;
  // One word as the source spells it ("Status", a custom field "appetite"): only known capitals change.
  if (!/[a-z0-9][A-Z]|[A-Z][A-Z][a-z]|_/.test(field)) return CAPITALS[field.toLowerCase()] ?? field;
  // Split before a capital that follows a lower-case letter or digit, and inside a run of capitals before
  // its last one when a lower-case letter follows (GUIDList -> GUID List); underscores are spaces.
  const words = field
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/);
  if (!words[0]) return field;
  return words
    .map((w, i) => {
      const caps = CAPITALS[w.toLowerCase()];
      if (caps) return caps;
      if (/^[A-Z0-9]+$/.test(w) && w.length > 1) return w; // an acronym the service spells in capitals
      return i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w.toLowerCase();
    })
    .join(' ');
}

/**
 * Whether a column holds GUIDs for joining rather than for reading: the record's GUID, a linked record's
 * GUID, or a list of linked records' GUIDs. These go last in a report.
 */
export const isGuidColumn = (c: Pick<Column, 'field' | 'kind'>): boolean => c.kind === 'guid' || (c.kind === 'list' && /guids$/i.test(c.field));

/** Which leads a report: the identifier people quote, then the name. */
const LEADING = ['Identifier', 'Name'];

/**
 * A dataset's columns as a report shows them: Identifier and Name first, the other readable columns in
 * the record's order, the GUID columns last (still in the table, so it can be joined), each with its
 * header in words. Headers are kept unique: a second field that reads the same gets " (2)".
 */
export function reportColumns(columns: readonly Column[]): Column[] {
  const leading = LEADING.flatMap((f) => columns.filter((c) => c.field === f && !isGuidColumn(c)));
  const rest = columns.filter((c) => !leading.includes(c));
  const ordered = [...leading, ...rest.filter((c) => !isGuidColumn(c)), ...rest.filter(isGuidColumn)];
  const taken = new Set<string>();
  return ordered.map(inReport(taken));
}

/** A column as a report shows it: its header in words (unique among `taken`), yes/no as "Yes"/"No". */
export const inReport =
  (taken: Set<string>) =>
  (c: Column): Column => ({ ...c, name: uniqueHeader(headerWords(c.field), taken), ...(c.kind === 'boolean' ? { yesNo: true as const } : {}) });

/** `wanted`, or `wanted (2)`, `(3)` ...: the first not in `taken` (compared without case, as Excel does); adds it to `taken`. */
export function uniqueHeader(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${wanted} (${i})`;
  taken.add(name.toLowerCase());
  return name;
}
