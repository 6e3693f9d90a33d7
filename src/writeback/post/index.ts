export { preparePost } from './prepare';
export type {
  Counts,
  Environment,
  PostOptions,
  PostPlan,
  Progress,
  RowOutcome,
  RunOptions,
  RunSummary,
} from './types';
