import { nameIndex } from '../../src/writeback/names';

const G1 = '11111111-1111-4111-8111-111111111111';
const G2 = '22222222-2222-4222-8222-222222222222';
const G3 = '33333333-3333-4333-8333-333333333333';
const index = nameIndex(
  [
    { id: G1, name: 'Data breach' },
    { id: G2, name: 'Operational incident' },
    { id: G3, name: 'Operational incident' },
  ],
  'incident types',
);

describe('looking up names', () => {
  it('finds a name whatever its case and spacing, and a GUID typed instead', () => {
    expect(index.resolve(' data BREACH ')).toMatchObject({ ok: true, id: G1 });
    expect(index.resolve(G3)).toMatchObject({ ok: true, id: G3 });
  });

  it('refuses an ambiguous name and lists the candidates with their GUIDs', () => {
    const r = index.resolve('Operational incident');
    expect(r).toMatchObject({ ok: false, code: 'ambiguous-name' });
    expect(!r.ok && r.candidates).toEqual([`Operational incident (${G2})`, `Operational incident (${G3})`]);
  });

  it('refuses an unknown name and suggests close ones', () => {
    const r = index.resolve('Data breech');
    expect(r).toMatchObject({ ok: false, code: 'unknown-name' });
    expect(!r.ok && r.message).toContain('"Data breach"');
  });
});
