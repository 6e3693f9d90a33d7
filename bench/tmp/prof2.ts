import { parseApiFile } from '/work/wt/binding/src/binding/parse';
import { catalogueSide, fileSide, matchAll } from '/work/wt/binding/src/binding/match';
import { DATASETS_AND_OPERATIONS } from '/work/wt/binding/src/catalog';
import SwaggerParser from '@apidevtools/swagger-parser';
const f = process.argv[2]!;
(async () => {
  let t = Date.now();
  await SwaggerParser.parse(f); console.log('sp.parse', Date.now() - t); t = Date.now();
  await SwaggerParser.validate(f); console.log('sp.validate', Date.now() - t); t = Date.now();
  const p = await parseApiFile(f); console.log('parse', Date.now() - t); t = Date.now();
  const sides = DATASETS_AND_OPERATIONS.map(catalogueSide); console.log('sides', Date.now() - t); t = Date.now();
  const files = p.operations.map(fileSide); console.log('files', Date.now() - t); t = Date.now();
  matchAll(sides, files); console.log('match', Date.now() - t); t = Date.now();
  matchAll(sides, files); console.log('match2', Date.now() - t); t = Date.now();
})();
