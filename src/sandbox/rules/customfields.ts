import type { z } from 'zod';
import type { bodies } from '../../catalog';
import type { FieldDefinition } from '../data/standing';
import type { Problem } from '../errors';

type Entry = z.infer<typeof bodies.customFieldEntry>;
export interface StoredValue {
  field: FieldDefinition;
  value: string;
}

/**
 * Checks custom field entries against their definitions and turns them into the stored text values.
 * `selectable` says whether a known field may be used here (incident types: only the selected types'
 * fields, spec Incident rule 5); it returns a message when not.
 */
export function checkCustomFields(
  entries: readonly Entry[],
  definitions: readonly FieldDefinition[],
  selectable: (f: FieldDefinition) => string | null = () => null,
): { problems: Problem[]; values: StoredValue[] } {
  const problems: Problem[] = [];
  const values: StoredValue[] = [];
  const seen = new Map<string, Set<string>>();
  entries.forEach((e, i) => {
    const at = `CustomFields[${i}]`;
    const f = definitions.find((d) => d.Id.toLowerCase() === e.CustomFieldGuid.toLowerCase());
    if (!f)
      return problems.push({
        field: at,
        message: `No custom field with GUID ${e.CustomFieldGuid} exists here.`,
      });
    const refused = selectable(f);
    if (refused) return problems.push({ field: at, message: refused });
    const value = storedValue(f, e);
    if (typeof value !== 'string') return problems.push({ field: at, message: value.problem });
    if (f.Required && value === '')
      return problems.push({
        field: at,
        message: `"${f.Name}" is a required field and cannot be sent empty.`,
      });
    const earlier = seen.get(f.Id);
    if (earlier && f.Type !== 'MultiSelect')
      return problems.push({ field: at, message: `"${f.Name}" is given more than once.` });
    // Spec: duplicate entries for the same multi-select custom field are rejected.
    if (earlier?.has(value))
      return problems.push({
        field: at,
        message: `"${f.Name}" is a multi-select field and "${value}" is given twice.`,
      });
    seen.set(f.Id, (earlier ?? new Set()).add(value));
    values.push({ field: f, value });
  });
  return { problems, values };
}

/** The text the value datasets carry for an entry, or why the entry does not fit the field's type. */
function storedValue(f: FieldDefinition, e: Entry): string | { problem: string } {
  const v = e.Value;
  const name = `"${f.Name}" (${f.Type})`;
  if (f.Type === 'Date')
    return e.DateValue !== undefined
      ? e.DateValue.slice(0, 10)
      : { problem: `${name} takes a DateValue (yyyy-mm-dd), not a Value.` };
  if (e.DateValue !== undefined) return { problem: `${name} takes a Value, not a DateValue.` };
  switch (f.Type) {
    case 'Checkbox':
      // Spec, Incident rule 6: a checkbox sent as false is stored as false, not dropped as empty.
      return typeof v === 'boolean' ? String(v) : { problem: `${name} takes true or false.` };
    case 'Number':
      return typeof v === 'number' && Number.isFinite(v) ? String(v) : { problem: `${name} takes a number.` };
    case 'Dropdown':
    case 'MultiSelect': {
      const o = f.AnswerOptions.find((a) => a.Name === v || a.Id.toLowerCase() === String(v).toLowerCase());
      return o
        ? o.Name
        : { problem: `${name} takes one of: ${f.AnswerOptions.map((a) => a.Name).join(', ')}.` };
    }
    default:
      return typeof v === 'string' ? v : { problem: `${name} takes text.` };
  }
}
