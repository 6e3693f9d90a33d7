import { indexList, listsOf, type BoundOperation, type Lists, type NameIndex } from '../../catalog';
import type { Store } from '../store';

/** The sandbox's own standing data as the placements' lists: names and GUIDs of organisations, users, types... */
type Json = Record<string, unknown>;

/** Standing data from the store as name indexes, built when a placement needs one. */
export function storeLists(store: Store, ids: readonly string[]): Lists {
  const out: Record<string, NameIndex | undefined> = {};
  for (const id of ids) {
    if (!store.has(id)) continue;
    const entries: { id: string; name: string }[] = [];
    for (const r of store.records(id) as Iterable<Json>) {
      const guid = r.Id ?? r.GUID;
      if (typeof guid === 'string' && typeof r.Name === 'string') entries.push({ id: guid, name: r.Name });
    }
    out[id] = indexList(entries);
  }
  return out;
}

/** The lists a bound operation's placements resolve names and GUIDs in. */
export const listsFor = (store: Store, op: BoundOperation): Lists => storeLists(store, listsOf(op));

const DEFINITIONS = ['incidenttypecustomfields', 'thirdpartycustomfields', 'thirdpartycontractcustomfields'];

/** Every custom field definition of the store by GUID: what a text answer is read against. */
export function definitionTypes(store: Store): Map<string, string> {
  const types = new Map<string, string>();
  for (const id of DEFINITIONS)
    if (store.has(id))
      for (const d of store.records(id) as Iterable<Json>)
        if (typeof d.Id === 'string' && typeof d.Type === 'string') types.set(d.Id.toLowerCase(), d.Type);
  return types;
}
