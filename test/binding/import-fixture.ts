import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import type { Binding } from '../../src/catalog';

/** Imports one of the customer fixtures (test/binding/fixtures/) as `grc-sheets binding import` does. */
export async function importFixture(name: string): Promise<Binding> {
  return (await importBinding(join(__dirname, 'fixtures', name))).binding;
}

/**
 * What docs/binding.md asks the admin to do after reading the import report: pick one of each ambiguous pair
 * (here the first candidate) and give every required property no flow fills a default (here its first enum
 * value), so no write is left unavailable for a reason the admin can settle.
 */
export function adminFixes(imported: Binding): Binding {
  const b = structuredClone(imported);
  for (const a of Object.values(b.ambiguous)) a.pick ??= a.candidates[0]!;
  for (const e of Object.values(b.endpoints))
    for (const x of e.body?.extra ?? [])
      if (x.default === undefined) x.default = x.enum?.[0] ?? 'set by the admin';
  for (const a of Object.values(b.ambiguous))
    for (const e of Object.values(a.bound ?? {}))
      for (const x of e.body?.extra ?? [])
        if (x.default === undefined) x.default = x.enum?.[0] ?? 'set by the admin';
  return b;
}
