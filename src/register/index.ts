export { openDataset } from './open';
export { offeredDatasets, datasetFor, mayLoad } from './offer';
export { REGISTERS, isRegisterId, registerOf, datasetsRead, WITH_INVISIBLE, type RegisterDefinition } from './registers';
