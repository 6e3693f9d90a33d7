import { fieldsObject, isFilePart, type FormField, type FormMedia } from '../../catalog';
import type { FormFieldType } from '../file/document';

/**
 * A form body as the bound sandbox reads it: the fields as they came (the content type parser makes this),
 * then as the file's types (a number, a yes/no, a list, a file part), which is what the file's schema is
 * checked against and the placements read back.
 */
export class FormWire {
  constructor(
    readonly media: FormMedia,
    readonly fields: FormField[],
  ) {}
}

function typed(v: unknown, t: FormFieldType): unknown {
  if (t.type === 'array') {
    // Several values: the field repeated, or (Swagger's default collectionFormat) one comma-separated text.
    const list = Array.isArray(v) ? v : typeof v === 'string' && v.includes(',') ? v.split(',') : [v];
    return list.map((x) => typed(x, t.items));
  }
  if (typeof v !== 'string') return v;
  switch (t.type) {
    case 'number':
    case 'integer':
      return v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    case 'boolean':
      return /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : v;
    case 'object':
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    default:
      return v;
  }
}

/** The form's fields as one object of the file's types (file parts as {filename, base64}). */
export function formValues(wire: FormWire, types: Readonly<Record<string, FormFieldType>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(fieldsObject(wire.fields)))
    out[name] = types[name] ? typed(v, types[name]) : v;
  return out;
}

/** What the file's schema is checked against: a file part stands as its file name (a binary string there). */
export function checkedView(values: Record<string, unknown>): Record<string, unknown> {
  const one = (v: unknown) => (isFilePart(v) ? v.filename : v);
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v.map(one) : one(v)]));
}
