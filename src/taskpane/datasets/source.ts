import { pathSource, type Dataset } from '../../catalog';

/**
 * Where a dataset's path comes from, in words a user understands (issue 10: "assumed path" needs saying).
 * `documented` needs no mark: the service's documentation shows the path. `not-in-file`: documented, but the
 * API file imported for this environment does not list it (kept at the documented path, issue 24).
 */
export type PathSource = 'documented' | 'bound' | 'assumed' | 'not-in-file';

export function sourceOf(d: Dataset): PathSource {
  return d.notInFile ? 'not-in-file' : pathSource(d);
}

export const SOURCE_BADGE: Record<Exclude<PathSource, 'documented'>, { label: string; tooltip: string }> = {
  'not-in-file': {
    label: 'documented, not in your API file',
    tooltip:
      "The service's documentation shows this path, but the API file your administrator imported for this environment does not list it. " +
      "grc-sheets keeps it at the documented path. If loading fails with 'not found', this service does not offer it: your administrator can take it off the list ('none' in the binding's overrides file, docs/binding.md).",
  },
  assumed: {
    label: 'assumed path',
    tooltip:
      "The service's documentation does not show where this dataset lives, and no Swagger file has been imported for this environment, so grc-sheets guesses the path. " +
      "If the guess is wrong, loading fails with 'not found'. Your administrator fixes this by importing the service's Swagger file (docs/binding.md).",
  },
  bound: {
    label: 'from API file',
    tooltip:
      "The path comes from the service's own Swagger file, imported by your administrator for this environment.",
  },
};

export const ASSUMED_EXPLAINED =
  "Datasets marked “assumed path”: the service's documentation does not show their path, so grc-sheets guesses it. " +
  "They may fail to load with 'not found' until your administrator imports the service's Swagger file for this environment.";

export const UNTYPED_EXPLAINED =
  'Only in your service (not in grc-sheets’ catalogue): loaded as text columns, one per property of the record.';
