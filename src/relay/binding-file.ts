import { readFileSync } from 'node:fs';
import { binding as bindingSchema, type Binding } from '../catalog/binding';

export type { Binding };

export class BindingFileError extends Error {
  override name = 'BindingFileError';
}

/**
 * Reads and checks a binding file (what `grc-sheets binding import` writes). One message names the file
 * and, for a file that does not fit the schema, each field; `what` says where the file was named
 * (`environments.prd.binding`, `--binding`).
 */
export function loadBinding(file: string, what = 'the binding'): Binding {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new BindingFileError(`${what}: cannot read ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BindingFileError(`${what}: ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = bindingSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`,
    );
    throw new BindingFileError(
      `${what}: ${file} is not a grc-sheets binding file (write one with grc-sheets binding import, docs/binding.md):\n${lines.join('\n')}`,
    );
  }
  return parsed.data;
}
