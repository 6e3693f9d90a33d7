import type { BoundDataset, BoundOperation, Consequence, Encoding } from '../catalog';
import type { CatField } from './fields';

const fold = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The catalogue values an enum encoding has no file value for: neither mapped nor spelled alike. */
function unread(catalogue: readonly string[], e: Encoding): string[] {
  if (e.kind !== 'enum' && e.kind !== 'number-unit') return [];
  const map = e.kind === 'enum' ? e.map : e.units;
  const values = e.kind === 'enum' ? e.values : [];
  if (e.kind === 'number-unit' && e.style !== 'object') return [];
  return catalogue.filter((v) => map[v] === undefined && !values.some((w) => fold(w) === fold(v)));
}

/**
 * Enum fields whose values the file writes in a way the import cannot read by meaning (an integer enum with
 * no names: `[0, 1, 2, 3]` and no description saying which is which): never guessed. Each is a consequence
 * naming the property, the values the file has, and the overrides lines that settle it
 * (`map <id> <field> "<catalogue value>" = <file value>`); until then a row with such a value is refused on
 * its cell, naming the values the file takes.
 */
export function enumsUnread(id: string, b: BoundOperation | BoundDataset, fields: readonly CatField[]): Consequence[] {
  const out: Consequence[] = [];
  for (const p of b.placements) {
    const e = p.encoding;
    const field = e.kind === 'number-unit' ? e.unitField : p.field;
    const catalogue = fields.find((f) => f.name === field)?.enum;
    if (!catalogue?.length) continue;
    const missing = unread(catalogue, e);
    if (!missing.length) continue;
    const values = e.kind === 'enum' ? e.values : [];
    const at = e.kind === 'number-unit' ? `${p.at}${e.unitAt ?? '/unit'}` : p.at;
    const numeric = e.kind === 'enum' ? e.as : e.kind === 'number-unit' ? e.unitAs : undefined;
    const sample = numeric ? '<number>' : '"<value>"';
    const why = `the file's ${p.in} ${at} takes ${values.length ? values.join(', ') : 'values'} and does not say which means ${missing.join(', ')}`;
    const maps = missing.map((v) => `map ${id} ${field} "${v}" = ${sample}`);
    out.push({
      kind: 'enum-unread',
      endpoint: id,
      columns: [field],
      message: `${why}: rows with them are refused until the admin writes, per value, ${maps.join(' / ')}`,
      unread: { why, maps },
    });
  }
  return out;
}
