import { DEFAULT_SEPARATOR, type BoundOperation, type Encoding } from './placement';

/**
 * The binding in words a person reads: what the import report prints and the taskpane's flow notice
 * shows, in the customer's file's own names (property path or parameter, the catalogue meaning, the
 * encoding).
 */

/** A short human reading of an encoding, for the report: "name -> {Guid, Name} (organizations)". */
export function describeEncoding(e: Encoding): string {
  const many = 'many' in e && e.many ? '[]' : '';
  switch (e.kind) {
    case 'plain':
      return `as is${e.as ? ` (as ${e.as})` : ''}${many ? ', a list' : ''}`;
    case 'guid':
      return `${e.value === 'name' ? 'name -> ' : ''}GUID${many}${e.list ? ` (${e.list})` : ''}`;
    case 'ref': {
      const keys = [e.idAt && `${e.idAt.slice(1)}: GUID`, e.nameAt && `${e.nameAt.slice(1)}: name`].filter(Boolean).join(', ');
      return `${e.value === 'name' ? 'name' : 'GUID'} -> {${keys}}${many}${e.list ? ` (${e.list})` : ''}`;
    }
    case 'date':
      return e.pattern ? `${e.format} as "${e.pattern}"` : e.format;
    case 'enum':
      return Object.keys(e.map).length ? `one of ${e.values.join('|')} (${Object.entries(e.map).map(([a, b]) => `${a}->${b}`).join(', ')})` : `one of ${e.values.join('|')}`;
    case 'number-unit':
      return `number + ${e.unitField} as ${e.style === 'object' ? `{${e.valueAt?.slice(1)}, ${e.unitAt?.slice(1)}}` : e.style === 'text' ? '"3 Months"' : 'ISO duration "P3M"'}`;
    case 'custom-fields': {
      const shape = e.style === 'map' ? 'custom fields as {GUID: value}' : `custom fields as [{${e.guidAt?.slice(1)}, ${e.valueAt?.slice(1)}${e.dateAt ? `, ${e.dateAt.slice(1)}` : ''}}]`;
      const multi =
        e.multi === 'array' || e.multi === 'list'
          ? 'several options as a list'
          : e.multi === 'join'
            ? `several options joined by "${e.separator ?? DEFAULT_SEPARATOR}"`
            : e.multi === 'repeat'
              ? 'one entry per option'
              : undefined;
      const said = [
        multi,
        e.options === 'name' ? 'options by name' : undefined,
        e.datePattern ? `dates as "${e.datePattern}"` : e.dateFormat === 'date-time' ? 'dates as date-time' : undefined,
      ].filter(Boolean);
      return said.length ? `${shape}; ${said.join('; ')}` : shape;
    }
    case 'file':
      return `a file part named by ${e.nameField}`;
    case 'objects':
      return `entries [{${e.fields.map((f) => `${f.field}->${f.fileName}`).join(', ')}}]`;
  }
}

export interface MappingRow {
  /** Where in the file: "body /incident/reportingOrganisation", "path {taskId}", "query ?notify". */
  file: string;
  /** The catalogue field (or the extra column's header) it holds. */
  meaning: string;
  encoding: string;
  required: boolean;
}

/** One row per placement and extra column of a bound operation, in the file's words. */
export function mappingRows(op: BoundOperation): MappingRow[] {
  // A form's fields are named as fields, not as pointers into a JSON body.
  const where = (p: { in: string; at: string }): string =>
    p.in === 'body'
      ? op.form
        ? `${op.form} form field ${p.at.slice(1)}`
        : `body ${p.at}`
      : p.in === 'path'
        ? `path {${p.at}}`
        : `query ?${p.at}`;
  return [
    ...op.placements.map((p) => ({
      file: where(p),
      meaning: p.field === '{guid}' ? 'the record it is about' : p.field,
      encoding: describeEncoding(p.encoding),
      required: p.required === true,
    })),
    ...op.extras.map((x) => ({
      file: where(x),
      meaning: `extra column "${x.header}"`,
      encoding: x.values ? `one of ${x.values.join('|')}` : describeEncoding(x.encoding),
      required: x.required && x.default === undefined,
    })),
  ];
}
