/**
 * The cell and column types a table is made of: shared by row conversion (src/sheet) and the workbook port
 * (src/workbook/port, which re-exports them), so neither folder imports the other's types.
 */

/** null leaves a cell empty. Dates are Excel serial numbers with a date format on the column. */
export type Cell = string | number | boolean | null;

export type ColumnFormat = 'text' | 'number' | 'integer' | 'date' | 'datetime' | 'boolean' | 'general';

export interface ColumnSpec {
  name: string;
  format: ColumnFormat;
  /**
   * A dropdown: a data-validation list whose source is a range on a (hidden) lookup sheet. `allowOther`
   * offers the list but accepts any typed value (no error alert), for cells that take several choices
   * such as "A; B", which a strict list would refuse while typing.
   */
  list?: {
    sheet: string;
    values: readonly string[];
    allowOther?: boolean;
    /**
     * The list's header on the lookup sheet, which identifies it there (a list of the same key is rewritten
     * in place); default the column's name. Templates key lists by environment too, so ACC and PRD
     * templates in one workbook keep their own lists.
     */
    key?: string;
  };
  /** A calculated column: every body row holds this formula (stored, evaluated by the host). */
  formula?: string;
  /** Hidden when made (the user can unhide it): a column the add-in keeps for itself. */
  hidden?: true;
  /** Width in points when made; the host's default width otherwise. */
  width?: number;
  /** A note on the header cell, saying what the column is for (a comment where the host has no notes). */
  headerNote?: string;
}
