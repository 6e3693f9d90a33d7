import type { WorkbookPort } from '../port';
import type { Requirements } from './context';

/**
 * What this Excel can do, from its requirement sets alone: known before the adapter's code is loaded
 * (the taskpane draws its first screen without it, src/workbook/lazy.ts).
 */
export function excelCapabilities(requirements: Requirements): WorkbookPort['capabilities'] {
  return { notes: requirements('ExcelApi', '1.18'), dataValidation: requirements('ExcelApi', '1.8') };
}
