import { bodies } from '../../catalog';
import type { DataRecord, WritebackApi } from '../api';
import type { Found, Sent } from '../flow';

/** The GUID of a created record (spec: the response returns the GUID; assumed `{"Id": ...}`, as the catalogue has it). */
export function answerGuid(answer: unknown): string {
  return bodies.created.parse(answer).Id;
}

/** `send` of a flow whose request is the create body itself: the row's result is the new record's GUID. */
export function sendCreate(operationId: string) {
  return async (body: unknown, api: WritebackApi, signal?: AbortSignal): Promise<Sent> => ({
    status: 'created',
    guid: answerGuid(await api.call(operationId, { body, signal })),
    message: 'Created',
  });
}

export function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The one record that matches and that no other row of the sheet already holds. Records of the created
 * datasets (incidents, third parties, contracts) carry their GUID in `Id`.
 */
export function findUnique(
  rs: readonly DataRecord[],
  taken: ReadonlySet<string>,
  matches: (r: DataRecord) => boolean,
): Found {
  const guids: string[] = [];
  for (const r of rs) {
    const id = r.Id;
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
