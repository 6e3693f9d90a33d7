export { startSandbox, type Sandbox, type SandboxOptions } from './server';
export {
  buildKeys,
  readKeysJson,
  KeysError,
  ENVIRONMENTS,
  APP_ADMIN,
  type KeySpec,
  type Environment,
} from './keys';
export { type Faults, type FaultsInput } from './faults';
export type { SandboxAdmin } from './admin';
export { ApiFileError, loadApiFile, type ApiFile } from './file/document';
