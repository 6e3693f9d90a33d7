import { writeFileSync } from 'node:fs';
import { exportSwagger, importBinding } from '../../src/binding';
import { DATASETS_AND_OPERATIONS, identityBound } from '../../src/catalog';
writeFileSync('/tmp/x/cat.json', JSON.stringify(exportSwagger()));
importBinding('/tmp/x/cat.json').then((r) => {
  const b = r.binding;
  console.log('decisions', Object.keys(b.decisions), 'missing', Object.keys(b.missing), 'extra', b.extraDatasets.length);
  for (const e of DATASETS_AND_OPERATIONS) {
    const got = b.endpoints[e.id]!;
    const id = identityBound(e);
    const a = got.placements.map((p) => `${p.field}@${p.in}:${p.at}`).sort().join();
    const c = id.placements.map((p) => `${p.field}@${p.in}:${p.at}`).sort().join();
    if (a !== c || got.how !== 'exact' || got.path !== e.path) console.log('DIFF', e.id, got.how, got.path, '\n  got ', a, '\n  want', c);
    if (got.kind === 'operation' && id.kind === 'operation' && JSON.stringify(got.answer) !== JSON.stringify(id.answer)) console.log('ANSWER', e.id, got.answer, id.answer);
    if (got.kind === 'operation' && got.extras.length) console.log('EXTRAS', e.id, got.extras.map((x) => x.key));
  }
});
