import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseApiFile } from '../../src/binding/parse';
import { catalogueSide, fileSide, matchAll } from '../../src/binding/match';
import { DATASETS_AND_OPERATIONS } from '../../src/catalog';
const f = process.argv[2]!;
(async () => {
  for (let i = 0; i < 2; i++) {
  let t = performance.now();
  const raw = await SwaggerParser.parse(f); console.log('sp.parse', (performance.now() - t).toFixed(0)); t = performance.now();
  JSON.parse(readFileSync(f, 'utf8')); console.log('JSON.parse', (performance.now() - t).toFixed(0)); t = performance.now();
  await SwaggerParser.dereference(structuredClone(raw)); console.log('deref', (performance.now() - t).toFixed(0)); t = performance.now();
  await SwaggerParser.validate(f); console.log('sp.validate', (performance.now() - t).toFixed(0)); t = performance.now();
  const p = await parseApiFile(f); console.log('parseApiFile', (performance.now() - t).toFixed(0)); t = performance.now();
  const sides = DATASETS_AND_OPERATIONS.map(catalogueSide);
  const files = p.operations.map(fileSide); console.log('sides+files', (performance.now() - t).toFixed(0)); t = performance.now();
  matchAll(sides, files); console.log('match', (performance.now() - t).toFixed(0));
  }
})();
