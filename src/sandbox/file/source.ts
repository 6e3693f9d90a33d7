import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Binding } from '../../catalog/binding';

/**
 * The API file a binding was imported from, when it is still where the import read it and unchanged (same
 * sha256): the bound sandbox then checks bodies against it without being told. A changed file is not used,
 * because its schemas may no longer be the ones the binding was made from.
 */
export function bindingFile(binding: Binding): string | undefined {
  const file = binding.source.file;
  if (!file || !existsSync(file)) return undefined;
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  return sha === binding.source.sha256 ? file : undefined;
}
