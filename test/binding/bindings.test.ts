import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBinding } from '../../src/binding';
import { createCatalog } from '../../src/catalog';
import { FIXTURE_BINDINGS, importFixture } from './fixtures/bindings';

describe('the committed fixture bindings', () => {
  it.each(FIXTURE_BINDINGS)(
    '%s equals a fresh import of %s (regenerate with fixtures/generate.ts)',
    async (name, file) => {
      const committed = loadBinding(join(__dirname, 'fixtures', name));
      const fresh = await importFixture(file);
      expect(committed).toEqual(fresh.binding);
      expect(fresh.unresolved).toEqual([]);
      expect(JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')).format).toBe(
        'grc-sheets-binding',
      );
      expect(() => createCatalog(committed)).not.toThrow();
    },
  );
});
