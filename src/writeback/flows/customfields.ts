import { z } from 'zod';
import type { bodies, RecordOf, records } from '../../catalog';
import type { Cell, ColumnSpec } from '../../workbook/port';
import type { Read } from '../rows/cells';
import * as cells from '../rows/cells';
import { str } from '../api';
import { offerNames } from '../checks/closest';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { isBlank, readBoolean, readDate, readList, readNumber, readText } = cells;

export type CustomFieldEntry = z.infer<typeof bodies.customFieldEntry>;
export type FieldKind = 'text' | 'number' | 'date' | 'checkbox' | 'select' | 'multiselect';

export interface AnswerOption {
  id: string;
  name: string;
}

export interface CustomField {
  id: string;
  name: string;
  kind: FieldKind;
  required: boolean;
  options: AnswerOption[];
  /** The header of the field's column in a template. */
  column: string;
  /** Incident custom fields belong to one incident type. */
  incidentTypeId?: string;
}

// Answer options come as nested records (spec: ID, name, value, colour); only id and name matter here.
const answerOptions = z
  .array(
    z.looseObject({ Id: z.string().optional(), Name: z.string().optional(), Value: z.string().optional() }),
  )
  .catch([]);

/** The spec does not list the type names; these cover the usual spellings ("Multi select", "Checkbox", ...). */
export function fieldKind(type: string | undefined): FieldKind {
  const t = (type ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (t.includes('multi')) return 'multiselect';
  if (t.includes('date')) return 'date';
  if (t.includes('number') || t.includes('numeric') || t.includes('decimal') || t.includes('integer'))
    return 'number';
  if (t.includes('check') || t.includes('bool')) return 'checkbox';
  if (t.includes('select') || t.includes('dropdown') || t.includes('list') || t.includes('choice'))
    return 'select';
  return 'text';
}

/** A custom field definition; those of incident types also name their type. */
type Definition = RecordOf<typeof records.customFieldDefinition> &
  Partial<Pick<RecordOf<typeof records.incidentTypeCustomField>, 'IncidentTypeId'>>;

/**
 * Custom field definitions as template columns. Invisible definitions are left out: users cannot see
 * them in the service either. `columnOf` names the column (incident fields carry their type's name).
 */
export function customFields(
  definitions: readonly Definition[],
  columnOf: (d: Definition) => string,
): CustomField[] {
  const fields: CustomField[] = [];
  const taken = new Map<string, number>();
  for (const d of definitions) {
    const id = str(d, 'Id');
    if (!id || d.Visible === false) continue;
    let column = columnOf(d);
    const n = (taken.get(column.toLowerCase()) ?? 0) + 1;
    taken.set(column.toLowerCase(), n);
    if (n > 1) column = `${column} (${n})`;
    fields.push({
      id,
      name: str(d, 'Name') ?? id,
      kind: fieldKind(str(d, 'Type')),
      required: d.Required === true,
      options: answerOptions
        .parse(d.AnswerOptions)
        .flatMap((o) => (o.Id ? [{ id: o.Id, name: o.Name ?? o.Value ?? o.Id }] : [])),
      column,
      incidentTypeId: str(d, 'IncidentTypeId'),
    });
  }
  return fields;
}

/**
 * Answer options as a dropdown. A multi-select cell holds several ("CRM; ERP"), which a strict list would
 * refuse while typing, so its list accepts other text and validation checks every option.
 */
export function customFieldColumn(field: CustomField, lookupSheet: string): ColumnSpec {
  const format =
    field.kind === 'date'
      ? 'date'
      : field.kind === 'number'
        ? 'number'
        : field.kind === 'checkbox'
          ? 'boolean'
          : 'text';
  if (field.kind === 'select' || field.kind === 'multiselect')
    return {
      name: field.column,
      format,
      list: {
        sheet: lookupSheet,
        values: field.options.map((o) => o.name),
        allowOther: field.kind === 'multiselect',
      },
    };
  if (field.kind === 'checkbox')
    return { name: field.column, format, list: { sheet: lookupSheet, values: ['TRUE', 'FALSE'] } };
  return { name: field.column, format };
}

/**
 * One cell as the field's entries. A checkbox left FALSE is sent as false (spec, Incident rule 6: it is
 * stored as false), a blank cell sends nothing. A multi-select sends one entry per chosen option; the same
 * option twice in a cell is refused (spec: duplicate entries for one multi-select field are rejected).
 */
export function readCustomField(field: CustomField, cell: Cell | undefined): Read<CustomFieldEntry[]> {
  // Most of a row's custom field cells are blank (each belongs to one incident type): nothing to read.
  if (isBlank(cell)) return BLANK;
  // A column repeats a few answers (a checkbox, an option, a date): each is read once per field, and its
  // entries are the same frozen objects on every row, which the body check knows again by identity
  // (rows/bodycheck.ts). -0 is left out: a map takes it for 0, and it is a different answer.
  if (Object.is(cell, -0)) return frozen(readAnswer(field, cell));
  let answers = answersOf.get(field);
  if (!answers) answersOf.set(field, (answers = new Map()));
  let read = answers.get(cell!);
  if (read === undefined) {
    // Frozen even when not remembered: answers of one shape whether remembered or not.
    read = frozen(readAnswer(field, cell));
    if (answers.size < ANSWERS_LIMIT) answers.set(cell!, read);
  }
  return read;
}

/** The answers read so far, per field and cell value; a column of unique answers stops being remembered here. */
const answersOf = new WeakMap<CustomField, Map<Cell, Read<CustomFieldEntry[]>>>();
const ANSWERS_LIMIT = 1_000;

function frozen(r: Read<CustomFieldEntry[]>): Read<CustomFieldEntry[]> {
  if (r.ok && r.value) {
    for (const e of r.value) Object.freeze(e);
    Object.freeze(r.value);
  }
  return Object.freeze(r);
}

function readAnswer(field: CustomField, cell: Cell | undefined): Read<CustomFieldEntry[]> {
  switch (field.kind) {
    case 'date': {
      const r = readDate(cell);
      return r.ok
        ? {
            ok: true,
            value: r.value === undefined ? undefined : [{ CustomFieldGuid: field.id, DateValue: r.value }],
          }
        : r;
    }
    case 'number': {
      const r = readNumber(cell);
      return !r.ok ? r : r.value === undefined ? { ok: true, value: undefined } : entryOf(field, r.value);
    }
    case 'checkbox': {
      const r = readBoolean(cell);
      return !r.ok ? r : r.value === undefined ? { ok: true, value: undefined } : entryOf(field, r.value);
    }
    case 'select': {
      const r = readText(cell);
      if (!r.ok || r.value === undefined) return { ok: true, value: undefined };
      const o = option(field, r.value);
      return o.ok ? entryOf(field, o.id) : o;
    }
    case 'multiselect': {
      const r = readList(cell);
      if (!r.ok || r.value === undefined) return { ok: true, value: undefined };
      const ids: string[] = [];
      for (const name of r.value) {
        const o = option(field, name);
        if (!o.ok) return o;
        if (ids.includes(o.id)) {
          return {
            ok: false,
            code: 'duplicate-option',
            message: `"${name}" is listed twice; each option may be chosen once, remove the repeat`,
          };
        }
        ids.push(o.id);
      }
      return { ok: true, value: ids.map((id) => ({ CustomFieldGuid: field.id, Value: id })) };
    }
    case 'text': {
      const r = readText(cell);
      return !r.ok || r.value === undefined ? { ok: true, value: undefined } : entryOf(field, r.value);
    }
  }
}

/** Every kind reads a blank cell as no value; shared, as callers only read it (so are the answers above). */
const BLANK: Read<CustomFieldEntry[]> = Object.freeze({ ok: true, value: undefined });

function entryOf(field: CustomField, value: string | number | boolean): Read<CustomFieldEntry[]> {
  return { ok: true, value: [{ CustomFieldGuid: field.id, Value: value }] };
}

/**
 * A field's options by their name (trimmed, lower case) and by their id: looked up for every cell of every
 * row, so made once per field (10,000 rows read the same few fields).
 */
const optionIndex = new WeakMap<CustomField, Map<string, AnswerOption[]>>();

function optionsNamed(field: CustomField, name: string): AnswerOption[] {
  let index = optionIndex.get(field);
  if (!index) {
    index = new Map();
    const add = (k: string, o: AnswerOption) => {
      const list = index!.get(k) ?? [];
      if (!list.includes(o)) list.push(o);
      index!.set(k, list);
    };
    for (const o of field.options) add(`n:${o.name.trim().toLowerCase()}`, o);
    for (const o of field.options) add(`i:${o.id}`, o);
    optionIndex.set(field, index);
  }
  const t = name.trim();
  const byName = index.get(`n:${t.toLowerCase()}`) ?? [];
  const byId = index.get(`i:${t}`) ?? [];
  // In the options' order, each once (an option may match by its name and its id).
  return byId.length ? field.options.filter((o) => byName.includes(o) || byId.includes(o)) : byName;
}

function option(
  field: CustomField,
  name: string,
): { ok: true; id: string } | { ok: false; code: string; message: string } {
  const matches = optionsNamed(field, name);
  if (matches.length === 1) return { ok: true, id: matches[0]!.id };
  if (matches.length > 1)
    return {
      ok: false,
      code: 'ambiguous-name',
      message: `${matches.length} options of ${field.name} are named "${name}"; this cannot be posted until the option names differ in the service`,
    };
  return {
    ok: false,
    code: 'unknown-option',
    message: `"${name}" is not an option of ${field.name}${offerNames(name, field.options.map((o) => o.name))}`,
  };
}
