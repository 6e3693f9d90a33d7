import { nameIndex } from '../../src/writeback/checks/nameindex';

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

describe('what an unknown name offers', () => {
  const parties = nameIndex(
    ['Acme Ltd', 'Globex', 'Initech', 'Umbrella Corp'].map((name, i) => ({ id: `${G1.slice(0, -1)}${i}`, name })),
    'third parties',
  );

  it('names the thing in the singular, spelt right', () => {
    const r = parties.resolve('Nowhere Ltd');
    expect(!r.ok && r.message).toMatch(/^no third party is named "Nowhere Ltd"/);
  });

  it('lists the known names, closest first', () => {
    const r = parties.resolve('Initek');
    expect(!r.ok && r.message).toContain('did you mean "Initech"?');
    expect(!r.ok && r.message).toMatch(/Known: Initech, /);
    const far = parties.resolve('Zzz');
    expect(!far.ok && far.message).toContain('known: ');
    expect(!far.ok && far.message).not.toContain('did you mean');
  });
});
