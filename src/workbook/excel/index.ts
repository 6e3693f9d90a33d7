export { createExcelWorkbook } from './excelWorkbook';
export type { ExcelWorkbookOptions, Requirements } from './excelWorkbook';
export { MARK_FILL } from './marks';
