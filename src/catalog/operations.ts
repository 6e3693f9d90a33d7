import type { z } from 'zod';
import * as b from './bodies';
import type { Access, Area, Operation } from './endpoint';

function op(
  id: string,
  path: string,
  area: Area,
  title: string,
  description: string,
  body: z.ZodType | null,
  answer: z.ZodType,
  extra: { documented?: boolean; access?: Access } = {},
): Operation {
  const version = (/\/(v[123])\//.exec(path)?.[1] as Operation['version']) ?? null;
  return {
    kind: 'operation',
    method: 'POST',
    id,
    path,
    version,
    area,
    title,
    description,
    body,
    answer,
    documented: extra.documented ?? true,
    access: extra.access ?? { kind: 'write' },
  };
}

const assumed = { documented: false } as const;

/** Every write operation: the documented paths, then the operations whose path the spec does not show. */
export const OPERATIONS: readonly Operation[] = [
  op('task-create', '/taskdata/v1/tasks', 'Tasks', 'Create a task', 'Notification periods as identifiers; hyperlinks may be included.', b.createTask, b.created),
  op('task-update', '/taskdata/v1/tasks/{guid}', 'Tasks', 'Update a task (v1)', 'Partial update.', b.updateTaskV1, b.empty),
  op('task-document', '/taskdata/v1/tasks/{guid}/add/document', 'Tasks', 'Add a document to a task', 'Upload a document.', b.addDocument, b.maybeWarning),
  op('task-advance', '/taskdata/v2/tasks/{guid}/workflow/advance', 'Tasks', 'Advance a task', 'Moves the task to the next workflow step. Responsible user or reviewer only.', null, b.empty, { access: { kind: 'write', caller: 'task-advance' } }),
  op('incident-document', '/incidents/{guid}/document', 'Incidents', 'Add a document to an incident', 'A warning when the caller may not add documents.', b.addDocument, b.maybeWarning, { access: { kind: 'write', caller: 'incident-document' } }),

  op('incident-create', '/incidents', 'Incidents', 'Create an incident', 'Only name and reporting organization are required. Returns the new GUID.', b.createIncident, b.created, assumed),
  op('incident-hyperlink', '/incidents/{guid}/hyperlink', 'Incidents', 'Add a hyperlink to an incident', 'At most 32,767 characters, no whitespace.', b.addHyperlink, b.empty, assumed),
  op('incident-status', '/incidents/{guid}/status', 'Incidents', 'Change an incident status', 'Moving to Waiting for acceptance enforces configured required fields.', b.changeIncidentStatus, b.empty, assumed),
  op('thirdparty-create', '/thirdpartydata/v1/thirdparties', 'Third parties', 'Create a third party', 'With custom fields and framework dimensions.', b.createThirdParty, b.created, assumed),
  op('contract-create', '/thirdpartydata/v1/contracts', 'Third parties', 'Create a third party contract', 'With services, dates, notice period and custom fields.', b.createContract, b.created, assumed),
  op('task-update-v2', '/taskdata/v2/tasks/{guid}', 'Tasks', 'Update task data (v2)', 'Full update of every field; does not submit the task.', b.updateTaskV2, b.empty, assumed),
  op('task-score-status', '/taskdata/v2/tasks/{guid}/scoreandstatus', 'Tasks', 'Update task score and status', 'Score, comment and status.', b.taskScoreAndStatus, b.empty, assumed),
  op('formresult-create', '/formdata/v1/forms/{guid}/results', 'Forms', 'Create a form result', 'Form field names must be unique; cannot create incidents.', b.createFormResult, b.created, assumed),
  op('samples-generate', '/controldata/v1/testplans/{guid}/samples/generate', 'Controls', 'Generate samples', 'Generate samples for a control test plan.', b.generateSamples, b.empty, assumed),
  op('final-score', '/controldata/v1/testplans/{guid}/finalscore', 'Controls', 'Submit a final score', 'Needs status Testing - awaiting conclusion; assigned tester or control administrator.', b.finalScore, b.empty, { ...assumed, access: { kind: 'write', caller: 'final-score' } }),
];
