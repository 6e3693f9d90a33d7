import { offeredValues, type BoundDataset, type BoundOperation } from '../catalog';

/**
 * The admin's `map <id> <field> "<catalogue value>" = <file value>` line: that catalogue value (or a name for
 * a value only the file has) goes out as the file's value, in the enum placed for the field, in the unit
 * of the number it is joined with, or in an extra column's enum (`<field>` its key: `body:/channel`). A number makes the file's values numbers. Returns why it cannot apply.
 */
export function mapEnumValue(bound: BoundOperation | BoundDataset, field: string, value: string, to: string | number): string | undefined {
  // An extra column of the file's own (its key, body:/channel): the name is what its dropdown offers.
  const extra = bound.kind === 'operation' ? bound.extras.find((x) => x.key === field && x.encoding.kind === 'enum') : undefined;
  if (bound.kind === 'operation' && extra) {
    const alone: BoundOperation = { ...bound, extras: [], placements: [{ field, in: extra.in, at: extra.at, fileName: extra.fileName, encoding: extra.encoding, how: 'admin' }] };
    const why = mapEnumValue(alone, field, value, to);
    if (!why) extra.values = offeredValues([], extra.encoding);
    return why;
  }
  const p = bound.placements.find(
    (x) => (x.field === field && x.encoding.kind === 'enum') || (x.encoding.kind === 'number-unit' && x.encoding.unitField === field),
  );
  if (!p) return `${field} is not placed as a list of values in ${bound.method} ${bound.path}`;
  const e = p.encoding;
  const text = String(to);
  const as = typeof to === 'number' ? (Number.isInteger(to) ? 'integer' : 'number') : undefined;
  if (e.kind === 'enum') {
    if (e.values.length && !e.values.includes(text)) return `the file's ${p.at} takes ${e.values.join(', ')}, not ${text}`;
    if (as && !e.as) e.as = as;
    // The value is the admin's meaning now: no other name stands for it.
    for (const k of Object.keys(e.map)) if (e.map[k] === text && k !== value) delete e.map[k];
    e.map[value] = text;
    if (!e.values.includes(text)) e.values.push(text);
  } else if (e.kind === 'number-unit') {
    if (as && !e.unitAs) e.unitAs = as;
    for (const k of Object.keys(e.units)) if (e.units[k] === text && k !== value) delete e.units[k];
    e.units[value] = text;
  }
  return undefined;
}
