/**
 * RFC 6901 JSON pointers: "" is the whole value, "/a/b" property b of property a; "~1" is "/", "~0" is "~".
 * Reading and writing plain JSON objects; writing creates the objects on the way.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const cache = new Map<string, readonly string[]>();

export function pointerParts(pointer: string): readonly string[] {
  let parts = cache.get(pointer);
  if (!parts) {
    parts = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (cache.size > 10_000) cache.clear();
    cache.set(pointer, parts);
  }
  return parts;
}

export const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
export const pointerOf = (...names: string[]): string => names.map((n) => `/${escapePointer(n)}`).join('');

/** The value at a pointer (array indexes too), or undefined. */
export function getAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const p of pointerParts(pointer)) {
    if (Array.isArray(at)) at = /^\d+$/.test(p) ? at[Number(p)] : undefined;
    else if (isObj(at)) at = Object.hasOwn(at, p) ? at[p] : undefined;
    else return undefined;
  }
  return at;
}

/**
 * Sets `value` at a pointer inside `target` (an object), creating objects on the way. Returns false when
 * something that is not an object is in the way (another placement put a value there).
 */
export function setAt(target: Json, pointer: string, value: unknown): boolean {
  const parts = pointerParts(pointer);
  if (!parts.length) return false;
  let at = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i]!;
    if (at[p] === undefined) at[p] = {};
    else if (!isObj(at[p])) return false;
    at = at[p] as Json;
  }
  const last = parts[parts.length - 1]!;
  if (isObj(at[last]) && isObj(value)) Object.assign(at[last] as Json, value);
  else at[last] = value;
  return true;
}

/** The last name of a pointer: what a report calls the property. */
export function lastName(pointer: string): string {
  const parts = pointerParts(pointer);
  return parts[parts.length - 1] ?? '';
}
