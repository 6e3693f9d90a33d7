export { storeLists, listsFor, definitionTypes } from './lists';
export { decodeRequest, bindingProblems, type Decoded } from './request';
export { recordEncoder, recordTemplate, envelopeOf, type RecordShape } from './records';
export { answerFor, type Reply } from './answer';
export { FormWire, formValues, checkedView } from './form';
