export type { WritebackApi, Standing, DataRecord } from './api';
export { loadStanding } from './api';
export type { Flow, AnyFlow, FlowId, PreparedFlow, Call, FollowUp, Place, Sent, Found } from './flow';
export { bindEnvironment, flowContext, type BoundEnvironment, type FlowContext } from './environment/context';
export { fitFlow, type FittedFlow, type RowRead } from './environment/fitted-flow';
export { FLOWS, flowById } from './flows';
export type { Problem, Severity } from './problem';
export { describeProblem, problemPlace } from './problem';
export { groupProblems, describeGroup, problemCell, rowsText, type ProblemGroup } from './problemgroups';
export { validateRows, marksOf, type Validation, type RowCheck } from './rows/validate';
export { markProblems } from './rows/marks';
export { rowsBelow, rowsBelowMessage, type RowsBelow } from './rows/below';
export {
  preparePost,
  type PostPlan,
  type PostOptions,
  type RunOptions,
  type RunSummary,
  type Counts,
  type Progress,
  type Environment,
  type RowOutcome,
} from './post';
export { RESULT_COLUMNS, type Status } from './rows/results';
export { createTemplate, FlowUnavailable, LOOKUP_SHEET } from './template';
export {
  flowAvailability,
  lackingText,
  skippedText,
  type FlowAvailability,
  type LackingDataset,
  type EnvironmentInfo,
  type EndpointInfo,
} from './environment/availability';
export { flowMapping, type OperationMapping, type ColumnMapping } from './environment/mapping';
export { flowExamples, type ExampleRequest } from './environment/example';
export { tableRecord, tableRecords, type TableRecord } from './rows/tablerecord';
export { writeAudit, AUDIT_TABLE, AUDIT_SHEET } from './audit';
export { formulaLike, type FormulaText } from './checks/csv-injection';
