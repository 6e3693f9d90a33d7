import type { LoadError } from './outcome';

/**
 * What a failed load or refresh left in the workbook, in words, from the facts (`left`, `table`,
 * `datasetId`); '' when the failure's own message says all. The screens add it where they show the
 * failure: the Tables card says `kept` itself (with the time of the last load), the headless refresh
 * leaves `stopped-mixed` out.
 */
export function whatItLeft(error: LoadError): string {
  switch (error.left) {
    case 'partial-removed':
      return 'Nothing was loaded; the partial table was removed.';
    case 'kept':
      return `Table ${error.table} still holds the data of its last load.`;
    case 'stopped-gone':
      return `The refresh of ${error.table} stopped because the table is no longer in the workbook; its record was removed. Load ${error.datasetId} again.`;
    case 'stopped-mixed':
      return `The refresh of ${error.table} stopped while replacing rows: the table may mix old and new rows. Refresh it again to put it right.`;
    case 'record-stale':
      return "The rows were replaced, but the table's record was not updated: refresh it again.";
    default:
      return '';
  }
}

/** The failure in one line: why, then what it left. */
export function failureText(error: LoadError): string {
  const left = whatItLeft(error);
  return left ? `${error.message} ${left}` : error.message;
}
