import { escapePointer, getAt, isGuid, parseDate, type Binding, type BoundOperation, type ExtraColumn } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import type { Cell } from '../../src/workbook/port';
import type { CustomFieldPlace, FlowWants } from '../binding/corpus/wants';

/**
 * The door tests' one question about a posted row: is every value typed in it in the request the bound
 * sandbox accepted, where the customer's file wants it (the corpus's wants.ts, written from the files, not
 * from the importer)? The answer lists what is missing, in words.
 */
type Json = Record<string, unknown>;
export type Row = Readonly<Record<string, Cell>>;
/** A request as it arrived: its path, query string and body read as its content type says. */
export interface Seen {
  path: string;
  query: string;
  body: unknown;
}

/** What a GUID in a request is compared by: the name of the standing record (or answer option) it stands for. */
export function namesByGuid(sandbox: Sandbox): Map<string, string> {
  const nameOf = new Map<string, string>();
  for (const list of [
    'organizations',
    'users',
    'incidenttypes',
    'incidentclassifications',
    'riskrootcausecategory',
    'businessdimensions',
    'frameworkdimensions',
    'thirdparty',
  ])
    for (const r of sandbox.store.list<Json>(list)) {
      const id = (r.Id ?? r.GUID) as string;
      if (typeof r.Name === 'string') nameOf.set(id.toLowerCase(), r.Name);
    }
  for (const list of ['incidenttypecustomfields', 'thirdpartycustomfields', 'thirdpartycontractcustomfields'])
    for (const d of sandbox.store.list<Json>(list))
      for (const o of (d.AnswerOptions as { Id: string; Name: string }[] | undefined) ?? []) nameOf.set(o.Id.toLowerCase(), o.Name);
  return nameOf;
}

/** A custom field's template column: its definition's GUID, and whether it holds a date. */
export interface CustomFieldColumn {
  column: string;
  id: string;
  date: boolean;
}

/** The custom field columns among a template's columns ("Name" or "Name [incident type]"). */
export function customFieldColumns(sandbox: Sandbox, dataset: string, columns: readonly string[]): CustomFieldColumn[] {
  const out: CustomFieldColumn[] = [];
  for (const d of sandbox.store.list<Json>(dataset))
    for (const column of columns.filter((c) => c === d.Name || c.startsWith(`${d.Name as string} [`)))
      out.push({ column, id: d.Id as string, date: d.Type === 'Date' });
  return out;
}

/** A typed value as the service would compare it: names for GUIDs, ISO dates without a time, lower case. */
export function norm(nameOf: ReadonlyMap<string, string>, v: unknown): string[] {
  const one = (x: unknown): string => {
    // Trimmed first: a joined answer ("<guid>; <guid>") splits into GUIDs with a space before them.
    let s = (typeof x === 'string' ? x : JSON.stringify(x)).trim();
    if (isGuid(s)) s = nameOf.get(s.toLowerCase()) ?? s;
    if (/^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z?$/.test(s)) s = s.slice(0, 10);
    return s.trim().toLowerCase();
  };
  if (Array.isArray(v)) return v.flatMap((x) => norm(nameOf, x));
  if (typeof v === 'string' && v.includes(';')) return v.split(';').map(one);
  return v === undefined || v === null ? [] : [one(v)];
}

/** Every value at a pointer whose `*` segments stand for every entry of an array. */
export function valuesAt(body: unknown, pointer: string): unknown[] {
  const star = pointer.indexOf('/*');
  if (star < 0) {
    const v = getAt(body, pointer);
    return v === undefined ? [] : [v];
  }
  const list = getAt(body, pointer.slice(0, star));
  if (!Array.isArray(list)) return [];
  return list.flatMap((e) => valuesAt(e, pointer.slice(star + 2)));
}

/** What a request holds where an extra column's value goes: its body pointer, query parameter or path. */
export function extraValues(nameOf: ReadonlyMap<string, string>, got: Seen, extra: ExtraColumn): string[] {
  const at =
    extra.in === 'query'
      ? new URLSearchParams(got.query).getAll(extra.at)
      : extra.in === 'path'
        ? got.path.split('/')
        : valuesAt(got.body, extra.at);
  return at.flatMap((v) => norm(nameOf, v));
}

export const extrasOf = (binding: Binding, ids: readonly string[]): ExtraColumn[] =>
  ids.flatMap((id) => (binding.endpoints[id] as BoundOperation | undefined)?.extras ?? []);

export interface Check {
  nameOf: ReadonlyMap<string, string>;
  wants: FlowWants;
  /** The extra columns of the operation the request went to. */
  extras: readonly ExtraColumn[];
  customFields: readonly CustomFieldColumn[];
  /** Columns whose values are not in this request: controls, a follow-up's columns, ignored cells. */
  skip: readonly string[];
}

/** What a request holds for one custom field, wherever the file wants its answers, as typed values compare. */
function customFieldValues(nameOf: ReadonlyMap<string, string>, body: unknown, p: CustomFieldPlace, field: CustomFieldColumn): string[] {
  const answers = p.map
    ? [getAt(body, `${p.at}/${escapePointer(field.id)}`)]
    : valuesAt(body, `${p.at}/*`)
        .filter((e) => getAt(e, p.guid) === field.id)
        .map((e) => (field.date && p.date ? getAt(e, p.date) : getAt(e, p.value)));
  // Where the file names no separator, joined options go with docs/binding.md's default "; ".
  const split = (x: unknown): unknown[] =>
    Array.isArray(x) ? x.flatMap(split) : typeof x === 'string' ? x.split(p.separator ?? '; ') : [x];
  return answers.flatMap((v) =>
    split(v).flatMap((x) => norm(nameOf, field.date && p.datePattern && typeof x === 'string' ? (parseDate(x, p.datePattern) ?? x) : x)),
  );
}

/** What of the typed row is not where the file wants it in `got`: empty when every value arrived. */
export function dropped(row: Row, got: Seen, c: Check): string[] {
  const out: string[] = [];
  for (const [column, cell] of Object.entries(row)) {
    if (cell === null || cell === '' || c.skip.includes(column)) continue;
    // An enum the file writes as numbers: the typed name is looked for as the file's value of that meaning.
    const meant = c.wants.enums?.[column]?.[String(cell)];
    const typed = norm(c.nameOf, meant ?? cell);
    const want = c.wants.columns[column];
    const extra = c.extras.find((x) => x.header === column);
    const field = c.customFields.find((f) => f.column === column);
    if (want === 'path') {
      const guid = isGuid(String(cell)) ? String(cell).toLowerCase() : [...c.nameOf].find(([, n]) => n.toLowerCase() === typed[0])?.[0];
      if (!guid || !got.path.toLowerCase().includes(guid)) out.push(`${column}: "${cell}" is not in the path ${got.path}`);
    } else if (want !== undefined) {
      // A file that writes dates in its own pattern (dd-MM-yyyy) is read back before comparing.
      const pattern = c.wants.datePattern;
      const found = (Array.isArray(want) ? want : [want]).flatMap((p) =>
        valuesAt(got.body, p).flatMap((v) => norm(c.nameOf, pattern && typeof v === 'string' ? (parseDate(v, pattern) ?? v) : v)),
      );
      for (const t of typed) if (!found.includes(t)) out.push(`${column}: "${t}" not at ${String(want)} (found ${JSON.stringify(found)})`);
    } else if (extra) {
      const found = extraValues(c.nameOf, got, extra);
      for (const t of typed) if (!found.includes(t)) out.push(`${column} (extra): "${t}" not at ${extra.at}`);
    } else if (field && c.wants.customFields) {
      // Every option of a multi-select too: each must be there (a map that kept only the last is a drop).
      const values = customFieldValues(c.nameOf, got.body, c.wants.customFields, field);
      for (const t of typed) if (!values.includes(t)) out.push(`${column} (custom field): "${t}" not in ${c.wants.customFields.at} (found ${JSON.stringify(values)})`);
    } else if (column === 'Notice period' || column === 'Notice period unit') {
      if (!c.wants.joinedNotice) out.push(`${column}: the wants say nowhere`);
    } else out.push(`${column}: a column whose value the file has no place for`);
  }
  if (c.wants.joinedNotice && row['Notice period'] != null && row['Notice period'] !== '') {
    const v = getAt(got.body, c.wants.joinedNotice);
    const expected = `${row['Notice period']} ${String(row['Notice period unit'])}`;
    if (String(v).toLowerCase() !== expected.toLowerCase())
      out.push(`Notice period: "${expected}" not at ${c.wants.joinedNotice} (found ${JSON.stringify(v)})`);
  }
  return out;
}
