import { importBinding } from './src/binding/import';
(async () => {
for (const f of ['test/binding/fixtures/acme.swagger.json','test/binding/fixtures/globex.openapi.yaml']) {
  const t = Date.now();
  const r = await importBinding(f);
  console.log(f, Date.now()-t, 'ms');
  for (const m of r.matched) if (m.bound.how !== 'exact') console.log('  ', m.id, m.bound.how, m.bound.path);
  console.log('  ambiguous', JSON.stringify(r.ambiguous.map(a => [a.id, a.candidates.map(c => c.ref + ' ' + c.score.toFixed(2))])));
  console.log('  missing', r.missing, 'extra', r.binding.extraDatasets.map(x=>x.id));
  console.log(JSON.stringify(r.binding.endpoints['incident-create']?.body ?? null));
  const diffs = r.matched.filter(m=>m.differences.length).map(m=> m.id + ': ' + m.differences.map(d=>d.message).join(' | '));
  console.log(diffs.join('\n').slice(0, 3000));
}})();
