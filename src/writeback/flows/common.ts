import { bodies } from '../../catalog';
import type { DataRecord } from '../api';
import type { Found } from '../flow';

/** The GUID of a created record (spec: the response returns the GUID; assumed `{"Id": ...}`, as the catalogue has it). */
export function answerGuid(answer: unknown): string {
  return bodies.created.parse(answer).Id;
}

export function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The one record that matches and that no other row of the sheet already holds. */
export function findUnique(
  rs: readonly DataRecord[],
  taken: ReadonlySet<string>,
  idField: string,
  matches: (r: DataRecord) => boolean,
): Found {
  const guids: string[] = [];
  for (const r of rs) {
    const id = r[idField];
    if (typeof id === 'string' && !taken.has(id.toLowerCase()) && matches(r)) guids.push(id);
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
