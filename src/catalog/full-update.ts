import type { HttpMethod } from './placement';

/**
 * Whether a catalogue operation, sent with the method the environment's file gives it, replaces every field
 * it takes (a field the request leaves out or sends empty may be erased). The spec's v2 task update is a
 * full update of every field an Application Administrator can edit, unless the file makes it a PATCH; the
 * score-and-status update sends what it is given, unless the file makes it a PUT. The write-back fills
 * such a request's blank fields with the record's current values; the import report tells the admin which
 * fields the environment cannot show.
 */
export function replacesFields(operationId: string, method: HttpMethod): boolean {
  if (operationId === 'task-update-v2') return method !== 'PATCH';
  if (operationId === 'task-score-status') return method === 'PUT';
  return false;
}
