/** Why the spreadsheet refused an operation. Both adapters throw these; `load` turns them into values. */
export type WorkbookErrorCode = 'table-not-found' | 'sheet-not-found' | 'overlap' | 'bad-argument' | 'host';

export class WorkbookError extends Error {
  override name = 'WorkbookError';
  constructor(
    readonly code: WorkbookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const isWorkbookError = (e: unknown): e is WorkbookError =>
  e instanceof Error && e.name === 'WorkbookError' && typeof (e as WorkbookError).code === 'string';

/** Sheet names: at most 31 characters, none of : \ / ? * [ ], not empty, not starting or ending with '. */
export function cleanSheetName(name: string): string {
  const cleaned = name.replace(/[:\\/?*[\]]/g, '_').replace(/^'+|'+$/g, '').slice(0, 31).trim();
  return cleaned || 'Sheet';
}

/** `base`, or `base_2`, `base_3`, ... (kept within `max` characters): the first that `taken` lacks. */
export function uniqueName(base: string, taken: (name: string) => boolean, max = 255): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = base.slice(0, max - suffix.length) + suffix;
    if (!taken(candidate)) return candidate;
  }
}
