export { createMemoryWorkbook } from './memoryWorkbook';
export type { MemoryWorkbook, MemoryWorkbookOptions, TableSnapshot, WorkbookSnapshot } from './memoryWorkbook';
