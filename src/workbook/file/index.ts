export { openFileWorkbook, type FileWorkbook, type FileWorkbookOptions } from './fileWorkbook';
export { FileProblem, isFileProblem, type FileProblemCode } from './problem';
export type { SaveReport } from './save';
export { ADDIN_ID, DEFAULT_STORE, type AddinStore } from './addin';
export { backupPathOf, officeLockFile, refuseIfOpen, replaceFile, stampOf, type FileStamp } from './replace';
export { writeEmptyWorkbook } from './empty';
