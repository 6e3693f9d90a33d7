import { identityBinding, type Binding, type BoundOperation, type ExtraColumn, type Placement } from '../../src/catalog';

/**
 * Bindings for write-back tests: the catalogue's own binding (every field at its own name), with some
 * operations changed the way a customer's file would have them.
 */
export type Change = (op: BoundOperation) => BoundOperation;

export function bindingWith(changes: Record<string, Change | Change[]>): Binding {
  const b = identityBinding('test');
  for (const [id, change] of Object.entries(changes)) {
    let op = b.endpoints[id] as BoundOperation;
    for (const c of Array.isArray(change) ? change : [change]) op = c(op);
    b.endpoints[id] = op;
  }
  return b;
}

/** A property of the file no catalogue field fills: a text (or enum) column of its own. */
export const extra =
  (name: string, o: { values?: string[]; required?: boolean; default?: unknown } = {}): Change =>
  (op) => {
    const x: ExtraColumn = {
      key: `body:/${name}`,
      header: name,
      in: 'body',
      at: `/${name}`,
      fileName: name,
      cell: 'text',
      ...(o.values ? { values: o.values } : {}),
      encoding: o.values ? { kind: 'enum', values: o.values, map: {} } : { kind: 'plain' },
      required: o.required ?? true,
      ...(o.default !== undefined ? { default: o.default } : {}),
    };
    return { ...op, extras: [...op.extras, x] };
  };

/** The field placed differently (its pointer, its encoding). */
export const place =
  (field: string, patch: Partial<Placement>): Change =>
  (op) => ({ ...op, placements: op.placements.map((p) => (p.field === field ? { ...p, ...patch } : p)) });

/** The file has no place for the field. */
export const unplace =
  (field: string): Change =>
  (op) => ({ ...op, placements: op.placements.filter((p) => p.field !== field) });
