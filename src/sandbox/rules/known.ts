import { FRAMEWORK_DIMENSIONS } from '../data/standing';
import type { Problem } from '../errors';

/** Values that must come from a fixed list; each unknown one is a problem that names the list. */
export function checkKnown(
  field: string,
  values: readonly string[] | undefined,
  known: readonly string[],
  what: string,
  problems: Problem[],
): void {
  (values ?? []).forEach((v, i) => {
    if (!known.includes(v))
      problems.push({
        field: `${field}[${i}]`,
        message: `"${v}" is not a known ${what}; known: ${known.join(', ')}.`,
      });
  });
}

/** Incidents and third parties take framework dimensions from the same configured list. */
export const checkFrameworkDimensions = (values: readonly string[] | undefined, problems: Problem[]) =>
  checkKnown('FrameworkDimensions', values, FRAMEWORK_DIMENSIONS, 'framework dimension', problems);
