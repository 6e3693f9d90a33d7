import type { Found } from '../flow';
import type { CustomField } from './customfields';
import { registeredSince } from './registered';

/** The columns of the custom fields a body's CustomFields entries answer: where a refusal of them is shown. */
export function customColumns(fields: readonly CustomField[], entries: readonly { CustomFieldGuid: string }[] | undefined): string[] {
  const ids = new Set((entries ?? []).map((e) => e.CustomFieldGuid));
  return fields.filter((f) => ids.has(f.id)).map((f) => f.column);
}

/** Where a created dataset keeps when each record was registered, and when the row was first sent. */
export interface Registration<T> {
  field: keyof T & string;
  since: Date | undefined;
}

/**
 * The one record that matches, that no other row of the sheet already holds, and that was registered
 * after the row was first sent: a lookalike that existed before (someone else's, last year's) is never
 * adopted, so the row is sent. A match whose registration time cannot be compared (the record has none,
 * or the row's Result time is missing) is left to the user. Records of the created datasets (incidents,
 * third parties, contracts) carry their GUID in `Id`.
 */
export function findUnique<T extends { Id?: string | null }>(
  rs: readonly T[],
  taken: ReadonlySet<string>,
  registration: Registration<T>,
  matches: (r: T) => boolean,
): Found {
  const guids: string[] = [];
  const untimed: string[] = [];
  const { field, since } = registration;
  for (const r of rs) {
    const id = r.Id;
    if (typeof id !== 'string' || taken.has(id.toLowerCase()) || !matches(r)) continue;
    const when = since ? registeredSince(r, field, since) : 'unknown';
    if (when === 'after') guids.push(id);
    else if (when === 'unknown') untimed.push(id);
  }
  if (untimed.length) {
    const all = [...guids, ...untimed];
    const why = since
      ? `the ${field} of ${untimed.join(', ')} is missing or too vague (no time of day or time zone) to compare with when the row was sent`
      : "the row's Result time (when it was first sent) is missing";
    return {
      kind: 'unclear',
      message: `${all.length === 1 ? 'A record in the service matches' : `${all.length} records in the service match`} this row (${all.join(', ')}), but ${why}. Check in the service: if one was created by this row, put its GUID in Result GUID and set Result to created; if none was, clear Result to send the row`,
    };
  }
  if (guids.length === 0) return { kind: 'absent' };
  if (guids.length === 1) return { kind: 'found', guid: guids[0]! };
  return {
    kind: 'unclear',
    message: `${guids.length} records in the service match this row (${guids.join(', ')}); find the one it created, put its GUID in Result GUID and set Result to created`,
  };
}

/** Lists compare as sets: the service may return them in another order. */
export function sameList(a: unknown, b: readonly string[] | undefined): boolean {
  const left = Array.isArray(a) ? a.map(String) : [];
  const right = b ?? [];
  return left.length === right.length && right.every((x) => left.includes(x));
}
