export { importBinding, type ImportOptions, type ImportResult, type Entry } from './import';
export { parseApiFile, relativePath, BindingInputError, type FileOperation, type ParsedFile } from './parse';
export { exportSwagger } from './export';
export { loadBinding, BindingFileError } from './load';
export { parseOverrides, type Override } from './overrides';
