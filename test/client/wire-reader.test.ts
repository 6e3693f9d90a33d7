import { fromWire, identityMap, records, type WireShape } from '../../src/catalog';
import { recordReader } from '../../src/client/wire-reader';

const G = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

function renamed(): WireShape {
  const shape = identityMap(records.riskV3);
  for (const k of Object.keys(shape.properties)) shape.properties[k] = k.charAt(0).toLowerCase() + k.slice(1);
  return shape;
}

describe('record reader of a bound dataset', () => {
  const wires: Record<string, unknown>[] = [
    { id: G, name: 'Fire', status: 'Open', brandNew: 1 },
    { id: G, Name: 'kept under its own name', riskCategory: null },
    { name: 'mapped wins', Name: 'same name unmapped' },
    {},
  ];

  it('reads a renaming shape exactly as fromWire with keepOthers does', () => {
    const shape = renamed();
    const read = recordReader(shape);
    for (const w of wires) expect(read(w)).toEqual(fromWire(shape, w, true));
    expect(read(wires[0]!)).toEqual({ Id: G, Name: 'Fire', Status: 'Open', brandNew: 1 });
  });

  it('leaves nested paths and enum maps to fromWire', () => {
    const shape = renamed();
    shape.properties.Organization = 'organization.name';
    shape.enums.Status = { values: ['open'], map: { Open: 'open' } };
    const w = { name: 'x', organization: { name: 'Finance' }, status: 'open' };
    expect(recordReader(shape)(w)).toEqual(fromWire(shape, w, true));
    expect(recordReader(shape)(w)).toMatchObject({ Organization: 'Finance', Status: 'Open' });
  });
});
