import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_BINDINGS, importFixture } from '../../test/binding/fixtures/bindings';
(async () => {
  for (const [name, file] of FIXTURE_BINDINGS) {
    const r = await importFixture(file);
    writeFileSync(join('test/binding/fixtures', name), JSON.stringify(r.binding, null, 2) + '\n');
    console.log(name, r.unresolved);
  }
})();
