import type { WriteHandler } from './context';
import { createFormResult, generateSamples, submitFinalScore } from './controls';
import { addIncidentDocument, addIncidentHyperlink, changeIncidentStatus, createIncident } from './incidents';
import {
  addTaskDocument,
  advanceTask,
  createTask,
  setTaskScoreAndStatus,
  updateTaskV1,
  updateTaskV2,
} from './tasks';
import { createContract, createThirdParty } from './thirdparties';

/** The handler of every catalogue operation, by id. A test checks that none is missing. */
export const HANDLERS: Record<string, WriteHandler<never>> = {
  'incident-create': createIncident,
  'incident-status': changeIncidentStatus,
  'incident-document': addIncidentDocument,
  'incident-hyperlink': addIncidentHyperlink,
  'thirdparty-create': createThirdParty,
  'contract-create': createContract,
  'task-create': createTask,
  'task-update': updateTaskV1,
  'task-update-v2': updateTaskV2,
  'task-document': addTaskDocument,
  'task-advance': advanceTask,
  'task-score-status': setTaskScoreAndStatus,
  'final-score': submitFinalScore,
  'samples-generate': generateSamples,
  'formresult-create': createFormResult,
};
