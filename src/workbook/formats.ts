import type { ColumnFormat } from './port';

/**
 * Excel number format codes per column format. Text columns get "@" so the host never reads untrusted
 * text as a formula, a number or a date. Date formats are ISO-like so a reader in any locale sees the
 * same day the service meant.
 */
export const NUMBER_FORMAT: Record<ColumnFormat, string> = {
  text: '@',
  number: 'General',
  integer: '0',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
  boolean: 'General',
  general: 'General',
};
