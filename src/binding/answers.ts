import { pointerOf, type AnswerPlacement } from '../catalog';
import type { FileOperation } from './parse';
import { kindOf, type Schema } from './schema';
import { splitWords, words } from './words';

/**
 * Where the file's answers keep what the catalogue reads: a create's new id (a property through any
 * envelope, a bare GUID, or the Location header) and a dataset's array of records (bare, or in an
 * envelope such as {"data": [...]}).
 */

const ID_WORDS = new Set(['id', 'guid', 'uuid']);
const ENVELOPE = new Set(['data', 'result', 'results', 'item', 'items', 'value', 'values', 'record', 'records', 'content', 'entity', 'payload', 'response', 'list', 'elements', 'entries', 'rows']);

function idPointer(s: Schema | undefined, resource: string[], depth = 0): string | undefined {
  if (!s?.properties || depth > 2) return undefined;
  const keys = Object.keys(s.properties);
  const direct =
    keys.find((k) => splitWords(k).length === 1 && ID_WORDS.has(splitWords(k)[0]!)) ??
    keys.find((k) => {
      const w = words(k);
      return w.length >= 2 && ID_WORDS.has(w[w.length - 1]!) && resource.includes(w.slice(0, -1).join(''));
    });
  if (direct && kindOf(s.properties[direct]) !== 'object') return pointerOf(direct);
  const inner = keys.filter((k) => kindOf(s.properties![k]) === 'object');
  inner.sort((a, b) => Number(ENVELOPE.has(b.toLowerCase())) - Number(ENVELOPE.has(a.toLowerCase())));
  for (const k of inner) {
    const deeper = idPointer(s.properties[k], resource, depth + 1);
    if (deeper !== undefined) return `${pointerOf(k)}${deeper}`;
  }
  return undefined;
}

/** Where a create's answer holds the new id; undefined when the file does not say (readCreatedId then looks in the usual places). */
export function findCreatedId(op: FileOperation, resource: string[]): AnswerPlacement | undefined {
  for (const a of op.answers) {
    const k = kindOf(a.schema);
    if (k === 'string') return { in: 'body', at: '' };
    const at = idPointer(a.schema, resource);
    if (at !== undefined) return { in: 'body', at };
  }
  if (op.answers.some((a) => a.location)) return { in: 'header', at: 'location' };
  return undefined;
}

/** Where a dataset answer's records are and what one record is. */
export function findRecords(op: FileOperation): { records: string; item?: Schema } | undefined {
  for (const a of op.answers) {
    const s = a.schema;
    if (!s) continue;
    if (kindOf(s) === 'array') return { records: '', ...(s.items ? { item: s.items } : {}) };
    if (kindOf(s) !== 'object' || !s.properties) continue;
    const arrays = Object.keys(s.properties).filter((k) => kindOf(s.properties![k]) === 'array');
    arrays.sort((x, y) => Number(ENVELOPE.has(y.toLowerCase())) - Number(ENVELOPE.has(x.toLowerCase())));
    const k = arrays[0];
    if (k !== undefined) {
      const items = s.properties[k]!.items;
      return { records: pointerOf(k), ...(items ? { item: items } : {}) };
    }
    for (const inner of Object.keys(s.properties)) {
      const sub = s.properties[inner]!;
      if (kindOf(sub) !== 'object' || !sub.properties || !ENVELOPE.has(inner.toLowerCase())) continue;
      const arr = Object.keys(sub.properties).find((x) => kindOf(sub.properties![x]) === 'array');
      if (arr) {
        const items = sub.properties[arr]!.items;
        return { records: `${pointerOf(inner)}${pointerOf(arr)}`, ...(items ? { item: items } : {}) };
      }
    }
  }
  return undefined;
}
