import { binding, type Binding } from '../catalog';
import { readTextFile } from '../files/text';

export class BindingFileError extends Error {
  override name = 'BindingFileError';
}

/** Reads and checks a binding file; the error names the file and the first problem with its JSON path. */
export function loadBinding(file: string): Binding {
  let raw: unknown;
  try {
    raw = JSON.parse(readTextFile(file));
  } catch (e) {
    throw new BindingFileError(`${file}: cannot read the binding file (${(e as Error).message})`);
  }
  const parsed = binding.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length ? issue.path.join('.') : 'the top level';
    throw new BindingFileError(
      `${file}: not a grc-sheets binding file: ${at}: ${issue.message} (re-import with grc-sheets binding import)`,
    );
  }
  return parsed.data;
}
