/**
 * Reading a request where a customer's wants file says (./wants.ts), shared by the doors that check the customer
 * files: customers.test.ts (the library's post through the relay, read in the bound sandbox) and
 * test/cli/corpus-doors.test.ts (template -> openpyxl -> `grc-sheets post`, read at the recording proxy). A
 * request is its path and its body (JSON, or a form's fields by name); a check's result is a list of problems in
 * words, each starting with the column it is about.
 */
import type { Sandbox } from '../../../src/sandbox';
import { getAt, isGuid } from '../../../src/catalog';
import type { Cell } from '../../../src/workbook/port';
import { wants as duff } from './duff.swagger.wants';
import { wants as gekko } from './gekko.springdoc.wants';
import { wants as monarch10 } from './monarch.aspnet10.wants';
import { wants as monarch11 } from './monarch.aspnet11.wants';
import { wants as nakatomi } from './nakatomi.nswag.wants';
import { wants as oscorp } from './oscorp.swashbuckle-autorest.wants';
import { wants as prestige } from './prestige.fastapi.wants';
import { wants as tyrell } from './tyrell.swashbuckle.wants';
import { wants as umbrella } from './umbrella.swashbuckle-v2.wants';
import { wants as wayne } from './wayne.swashbuckle-strings.wants';
import type { ColumnWant, CustomFieldsWant, DateWant, FileWants, FlowWants, Place } from './wants';
import { valuesAt } from '../../support/wants-check';

type Json = Record<string, unknown>;
type Row = Record<string, Cell>;
/** What a request is read by: every standing name by GUID (lower case), what a GUID in a request is compared by. */
interface World {
  nameOf: Map<string, string>;
}
/** A request as it reached the service: its path (below the API root or not) and its body. */
export interface Received {
  path: string;
  body: unknown;
}

/** Each customer file of this folder and its wants. */
export const CUSTOMER_WANTS: Record<string, FileWants> = {
  'tyrell.swashbuckle.json': tyrell,
  'wayne.swashbuckle-strings.json': wayne,
  'nakatomi.nswag.json': nakatomi,
  'gekko.springdoc.json': gekko,
  'prestige.fastapi.json': prestige,
  'duff.swagger.yaml': duff,
  'monarch.aspnet10.json': monarch10,
  'monarch.aspnet11.json': monarch11,
  'umbrella.swashbuckle-v2.json': umbrella,
  'oscorp.swashbuckle-autorest.json': oscorp,
};

/**
 * Runs one check of a customer file: its problems must be none, unless the check is a known gap, which must still show problems.
 * `gaps` is the table of known gaps (`<file> › <check>` -> the reason), `gapsFile` where it is written.
 * A crash of the product is a problem like any other (it is listed, not thrown past the table).
 */
export async function checkAgainstGaps(
  gaps: Record<string, string>,
  gapsFile: string,
  file: string,
  name: string,
  problems: () => Promise<string[]> | string[],
) {
  let found: string[];
  try {
    found = await problems();
  } catch (e) {
    found = [`crashed: ${(e as Error).message.split('\n').slice(0, 3).join(' / ')}`];
  }
  const key = `${file} › ${name}`;
  if (gaps[key] !== undefined) {
    if (found.length === 0)
      throw new Error(
        `${key} passes now: remove it from ${gapsFile} (it said: ${gaps[key]})`,
      );
  } else expect(found).toEqual([]);
}


/** A typed value as the service would compare it: names for GUIDs, lower case; a list cell as its items. */
export function norm(w: World, v: unknown): string[] {
  const one = (x: unknown): string => {
    let s = typeof x === 'string' ? x : JSON.stringify(x);
    if (isGuid(s)) s = w.nameOf.get(s.toLowerCase()) ?? s;
    return s.trim().toLowerCase();
  };
  if (Array.isArray(v)) return v.flatMap((x) => norm(w, x));
  if (typeof v === 'string' && v.includes(';')) return v.split(';').map(one);
  return v === undefined || v === null ? [] : [one(v)];
}

/** A typed ISO date (yyyy-mm-dd) as the file wants it. */
export function dateAs(iso: string, want: DateWant): RegExp {
  const [y, m, d] = iso.slice(0, 10).split('-');
  switch (want) {
    case 'date':
      return new RegExp(`^${y}-${m}-${d}$`);
    case 'date-time':
      return new RegExp(`^${y}-${m}-${d}T\\d{2}:\\d{2}`);
    case 'dd-MM-yyyy':
      return new RegExp(`^${d}-${m}-${y}$`);
    case 'dd/MM/yyyy':
      return new RegExp(`^${d}/${m}/${y}$`);
  }
}

export const asWant = (p: Place): ColumnWant => (typeof p === 'string' || Array.isArray(p) ? { at: p } : p);

/** The typed cells of a row that are not where the flow's wants say, each in words. */
export function columnProblems(
  w: World,
  row: Row,
  got: Received,
  wants: FlowWants,
  skip: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (const [column, cell] of Object.entries(row)) {
    if (cell === null || cell === '' || column === 'Action' || skip.includes(column)) continue;
    const place = wants.columns[column];
    if (place === undefined) {
      out.push(`${column}: the wants have no place for this column (typed ${JSON.stringify(cell)})`);
      continue;
    }
    if (place === 'path') {
      const typed = String(cell).toLowerCase();
      const guid = isGuid(typed) ? typed : [...w.nameOf].find(([, n]) => n.toLowerCase() === typed)?.[0];
      if (!guid || !got.path.toLowerCase().includes(guid))
        out.push(`${column}: "${cell}" is not in the path ${got.path}`);
      continue;
    }
    const want = asWant(place);
    const pointers = Array.isArray(want.at) ? want.at : [want.at];
    const found = pointers.flatMap((p) => valuesAt(got.body, p));
    const where = pointers.join(' or ');
    if (want.enum) {
      const expected = want.enum[String(cell)];
      if (!found.some((v) => v === expected))
        out.push(
          `${column}: wants ${JSON.stringify(expected)} for "${cell}" at ${where}, found ${JSON.stringify(found)}`,
        );
    } else if (want.date) {
      const re = dateAs(String(cell), want.date);
      if (!found.some((v) => typeof v === 'string' && re.test(v)))
        out.push(`${column}: wants "${cell}" as ${want.date} at ${where}, found ${JSON.stringify(found)}`);
    } else if (want.number) {
      if (!found.some((v) => v === cell))
        out.push(`${column}: wants the number ${String(cell)} at ${where}, found ${JSON.stringify(found)}`);
    } else {
      const have = found.flatMap((v) => norm(w, v));
      for (const t of norm(w, cell))
        if (!have.includes(t)) out.push(`${column}: "${t}" not at ${where} (found ${JSON.stringify(found)})`);
    }
  }
  return out;
}

export interface TypedField {
  column: string;
  def: Json;
  cell: Cell;
}

/** Custom field definitions of a dataset with the template column each has, and a typed value for each. */
export function customFieldCells(
  w: { sandbox: Sandbox },
  dataset: string,
  columns: readonly string[],
  only?: (d: Json) => boolean,
) {
  const fields: TypedField[] = [];
  for (const d of w.sandbox.store.list<Json>(dataset)) {
    const name = d.Name as string;
    const column = columns.find((c) => c === name || c.startsWith(`${name} [`));
    if (!column || (only && !only(d))) continue;
    const options = ((d.AnswerOptions as { Name: string }[] | undefined) ?? []).map((o) => o.Name);
    const cell: Cell =
      d.Type === 'Date'
        ? '2026-02-14'
        : d.Type === 'Number'
          ? 42
          : d.Type === 'Checkbox'
            ? true
            : d.Type === 'MultiSelect'
              ? `${options[0]};${options[2] ?? options[1]}`
              : d.Type === 'Dropdown'
                ? options[1]!
                : `cf ${name}`;
    fields.push({ column, def: d, cell });
  }
  return fields;
}

/** Where a custom field's answer is not as the wants say: shape, multi-select, select by name or GUID, dates. */
export function customFieldProblems(got: Received, want: CustomFieldsWant, fields: TypedField[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const id = (f.def.Id as string).toLowerCase();
    const type = f.def.Type as string;
    const isDate = type === 'Date';
    const options = (f.def.AnswerOptions as { Id: string; Name: string }[] | undefined) ?? [];
    const wire = (name: string) => {
      const o = options.find((x) => x.Name === name);
      return want.select === 'guid' ? (o?.Id ?? name).toLowerCase() : name;
    };
    let answers: unknown[];
    if (want.shape === 'map') {
      const map = (getAt(got.body, want.at) ?? {}) as Json;
      const key = Object.keys(map).find((k) => k.toLowerCase() === id);
      answers = key === undefined ? [] : [map[key]];
    } else {
      answers = valuesAt(got.body, `${want.at}/*`)
        .filter((e) => String(getAt(e, want.guid!)).toLowerCase() === id)
        .map((e) => getAt(e, isDate && want.date ? want.date : want.value!))
        .filter((v) => v !== undefined && v !== null);
    }
    const scalar = (v: unknown) => (typeof v === 'string' && isGuid(v) ? v.toLowerCase() : String(v));
    const unwrap = (v: unknown) => (want.alwaysArray && Array.isArray(v) && v.length === 1 ? v[0] : v);
    let ok: boolean;
    let expected: unknown;
    if (type === 'MultiSelect') {
      const names = String(f.cell).split(';');
      const items = names.map(wire);
      const sameSet = (xs: unknown[]) =>
        xs.length === items.length && items.every((i) => xs.map(scalar).includes(i));
      if (want.multi === 'array') {
        expected = items;
        ok = answers.length === 1 && Array.isArray(answers[0]) && sameSet(answers[0] as unknown[]);
      } else if (want.multi === 'repeated') {
        expected = items.map((i) => (want.alwaysArray ? [i] : i));
        ok = sameSet(answers.map(unwrap));
      } else {
        expected = items.join(want.separator);
        ok = answers.length === 1 && sameSet(String(unwrap(answers[0])).split(want.separator!));
      }
    } else {
      const value = isDate ? null : type === 'Dropdown' ? wire(String(f.cell)) : String(f.cell);
      expected = isDate ? `${String(f.cell)} as ${want.dates}` : want.alwaysArray ? [value] : value;
      const one = answers.length === 1 ? answers[0] : undefined;
      const v = want.alwaysArray ? (Array.isArray(one) && one.length === 1 ? one[0] : undefined) : one;
      ok = isDate
        ? typeof v === 'string' && dateAs(String(f.cell), want.dates).test(v)
        : v !== undefined && scalar(v) === value;
    }
    if (!ok)
      out.push(
        `${f.column} (${type} custom field): wants ${JSON.stringify(expected)} ${want.shape === 'map' ? `under ${want.at}/<field GUID>` : `in ${want.at}`}, found ${JSON.stringify(answers)}`,
      );
  }
  return out;
}

/** A problem when the request did not go to the path the wants say (see FlowWants.pathLike). */
export const pathProblems = (got: Received, want: { pathLike?: string }): string[] =>
  want.pathLike && !new RegExp(want.pathLike).test(got.path)
    ? [`sent to ${got.path}, wants a path like ${want.pathLike}`]
    : [];
