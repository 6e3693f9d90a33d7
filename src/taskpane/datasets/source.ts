/**
 * Where a dataset's path comes from, in words a user understands (issue 10: "assumed path" needs saying).
 * `documented` needs no mark: the service's documentation shows the path.
 */
export type PathSource = 'documented' | 'bound' | 'assumed';

export const SOURCE_BADGE: Record<Exclude<PathSource, 'documented'>, { label: string; tooltip: string }> = {
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
