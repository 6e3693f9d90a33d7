import { isGuid } from '../../catalog';
import { likelyMeant, offerNames } from './closest';

/**
 * Names shown to users, GUIDs sent to the service. A name that matches no entry or several entries is an
 * error naming the candidates, never a guess.
 */
export type Resolved =
  | { readonly ok: true; readonly id: string; readonly name: string }
  | {
      readonly ok: false;
      readonly code: 'unknown-name' | 'ambiguous-name';
      readonly message: string;
      readonly candidates: readonly string[];
    };

export interface NameEntry {
  id: string;
  name: string;
}

export interface NameIndex<E extends NameEntry = NameEntry> {
  readonly entries: readonly E[];
  resolve(text: string): Resolved;
  byId(id: string): E | undefined;
}

const key = (s: string) => s.trim().toLowerCase();

/**
 * `unlisted`: the environment lacks the dataset these names come from, so any GUID is taken as it is
 * (the service checks it) and a name cannot be resolved.
 */
export function nameIndex<E extends NameEntry>(
  entries: readonly E[],
  what: string,
  unlisted = false,
): NameIndex<E> {
  const byName = new Map<string, E[]>();
  const byId = new Map<string, E>();
  for (const e of entries) {
    byId.set(e.id.toLowerCase(), e);
    const list = byName.get(key(e.name));
    if (list) list.push(e);
    else byName.set(key(e.name), [e]);
  }
  // A column repeats a few names: each text is resolved once (the answer is the same object every time,
  // which callers only read); a column of ever new texts stops being remembered at the limit.
  const resolved = new Map<string, Resolved>();
  const resolve = (text: string): Resolved => {
    let r = resolved.get(text);
    if (r === undefined) {
      r = resolveText(text);
      if (resolved.size < RESOLVED_LIMIT) resolved.set(text, r);
    }
    return r;
  };
  return {
    entries,
    byId: (id) => byId.get(id.toLowerCase()),
    resolve,
  };

  function resolveText(text: string): Resolved {
    const found = byName.get(key(text));
    if (found?.length === 1) return { ok: true, id: found[0]!.id, name: found[0]!.name };
    if (found && found.length > 1) {
      const candidates = found.map((e) => `${e.name} (${e.id})`);
      return {
        ok: false,
        code: 'ambiguous-name',
        candidates,
        message: `${found.length} ${what} are named "${text.trim()}": ${candidates.join(', ')}; type the GUID of the one you mean`,
      };
    }
    if (isGuid(text.trim())) {
      const e = byId.get(text.trim().toLowerCase());
      if (e) return { ok: true, id: e.id, name: e.name };
      if (unlisted) return { ok: true, id: text.trim(), name: text.trim() };
    }
    if (unlisted)
      return {
        ok: false,
        code: 'unknown-name',
        candidates: [],
        message: `"${text.trim()}" is not a GUID: this environment lacks the list of ${what}, so type the GUID`,
      };
    const names = entries.map((e) => e.name);
    return {
      ok: false,
      code: 'unknown-name',
      candidates: likelyMeant(text, names),
      message: `no ${singular(what)} is named "${text.trim()}"${offerNames(text, names)}`,
    };
  }
}

const RESOLVED_LIMIT = 1_000;

/** "third parties" -> "third party", "incident types" -> "incident type". */
export const singular = (plural: string) => plural.replace(/ies$/, 'y').replace(/s$/, '');
