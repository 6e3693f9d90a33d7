import { keepsDocumented, type Consequence } from '../catalog';
import type { Entry } from './import';
import type { Line } from './overrides';

/**
 * Documented datasets the customer's file does not list, at import: the catalogue keeps them at the spec's
 * path (catalog keepsDocumented), so the binding records the admin's `none` lines and says, per such dataset,
 * that it is kept rather than unavailable.
 */

/** Catalogue ids the admin's `none` lines leave unbound (a later `use` for the same id binds it again). */
export function declinedIds(lines: readonly Line[], entries: ReadonlyMap<string, Entry>): string[] {
  return [...new Set(lines.filter((l) => l.kind === 'none').map((l) => l.id))].filter((id) => !entries.get(id)?.chosen);
}

/** The catalogue's rule for one entry, before the binding is written. */
export const keptDocumented = (e: Entry, none: readonly string[]): boolean =>
  keepsDocumented({ endpoints: e.chosen ? { [e.side.e.id]: e.chosen.bound } : {}, missing: {}, none: [...none] }, e.side.e);

/** The consequences with each kept dataset's `unavailable` replaced by what happens instead. */
export function withDocumented(consequences: readonly Consequence[], entries: readonly Entry[], none: readonly string[]): Consequence[] {
  const kept = new Map(entries.filter((e) => keptDocumented(e, none)).map((e) => [e.side.e.id, e]));
  return consequences.map((c) => {
    const e = c.kind === 'unavailable' ? kept.get(c.endpoint) : undefined;
    if (!e) return c;
    const id = e.side.e.id;
    return {
      kind: 'documented-not-in-file',
      endpoint: id,
      columns: [],
      message: `the file does not list it: kept at the spec's documented path ${e.side.e.path}${e.decision ? ' until the admin decides' : ''}; "none ${id}" in the overrides file takes it away`,
    };
  });
}
