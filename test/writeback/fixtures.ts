import type { Answer, DatasetId } from '../../src/catalog';
import type { Cell } from '../../src/workbook/port';
import type { Standing } from '../../src/writeback/api';
import { catalogueEnvironment, flowContext } from '../../src/writeback/environment/context';
import type { Flow, PreparedFlow, RowInput } from '../../src/writeback/flow';

/** Small standing data in the shapes of the catalogue's records. */
export const G = {
  operational: '0a000000-0000-4000-8000-000000000001',
  breach: '0a000000-0000-4000-8000-000000000002',
  archived: '0a000000-0000-4000-8000-000000000003',
  minor: '0b000000-0000-4000-8000-000000000001',
  major: '0b000000-0000-4000-8000-000000000002',
  rootCause: '0c000000-0000-4000-8000-000000000001',
  cfRecords: '0d000000-0000-4000-8000-000000000001',
  cfReported: '0d000000-0000-4000-8000-000000000002',
  cfImpact: '0d000000-0000-4000-8000-000000000003',
  cfSystems: '0d000000-0000-4000-8000-000000000004',
  cfOpsDate: '0d000000-0000-4000-8000-000000000005',
  optHigh: '0e000000-0000-4000-8000-000000000001',
  optLow: '0e000000-0000-4000-8000-000000000002',
  optCrm: '0e000000-0000-4000-8000-000000000003',
  optErp: '0e000000-0000-4000-8000-000000000004',
  tpRegions: '0f000000-0000-4000-8000-000000000001',
  optEu: '0f000000-0000-4000-8000-000000000002',
  optUs: '0f000000-0000-4000-8000-000000000003',
  acme: '10000000-0000-4000-8000-000000000001',
  twinA: '10000000-0000-4000-8000-000000000002',
  twinB: '10000000-0000-4000-8000-000000000003',
  taskTodo: '20000000-0000-4000-8000-000000000001',
  taskReview: '20000000-0000-4000-8000-000000000002',
  orgFinance: '30000000-0000-4000-8000-000000000001',
  orgIt: '30000000-0000-4000-8000-000000000002',
  orgHead: '30000000-0000-4000-8000-000000000003',
  userAnn: '31000000-0000-4000-8000-000000000001',
  userBob: '31000000-0000-4000-8000-000000000002',
  userGone: '31000000-0000-4000-8000-000000000003',
  dimPayments: '32000000-0000-4000-8000-000000000001',
  dimDora: '32000000-0000-4000-8000-000000000002',
  dimGdpr: '32000000-0000-4000-8000-000000000003',
  dimIso: '32000000-0000-4000-8000-000000000004',
};

const option = (Id: string, Name: string) => ({ Id, Name, Value: Name, Colour: null });

export const standing: Standing = new Map<string, Record<string, unknown>[]>([
  [
    'incidenttypes',
    [
      { Id: G.operational, Name: 'Operational incident', Standard: true, Archived: false },
      { Id: G.breach, Name: 'Data breach', Standard: true, Archived: false },
      { Id: G.archived, Name: 'Old type', Standard: false, Archived: true },
    ],
  ],
  [
    'incidentclassifications',
    [
      { Id: G.minor, Name: 'Minor' },
      { Id: G.major, Name: 'Major' },
    ],
  ],
  ['riskrootcausecategory', [{ GUID: G.rootCause, ParentGUID: null, Name: 'Process' }]],
  [
    'incidenttypecustomfields',
    [
      {
        Id: G.cfRecords,
        Name: 'Records affected',
        Type: 'Number',
        Required: true,
        Visible: true,
        AnswerOptions: [],
        IncidentTypeId: G.breach,
      },
      {
        Id: G.cfReported,
        Name: 'Reported to authority',
        Type: 'Checkbox',
        Required: false,
        Visible: true,
        AnswerOptions: [],
        IncidentTypeId: G.breach,
      },
      {
        Id: G.cfImpact,
        Name: 'Impact',
        Type: 'Dropdown',
        Required: false,
        Visible: true,
        AnswerOptions: [option(G.optHigh, 'High'), option(G.optLow, 'Low')],
        IncidentTypeId: G.operational,
      },
      {
        Id: G.cfSystems,
        Name: 'Systems',
        Type: 'MultiSelect',
        Required: false,
        Visible: true,
        AnswerOptions: [option(G.optCrm, 'CRM'), option(G.optErp, 'ERP')],
        IncidentTypeId: G.operational,
      },
      {
        Id: G.cfOpsDate,
        Name: 'Hidden',
        Type: 'Date',
        Required: false,
        Visible: false,
        AnswerOptions: [],
        IncidentTypeId: G.operational,
      },
    ],
  ],
  [
    'thirdpartycustomfields',
    [
      {
        Id: G.tpRegions,
        Name: 'Regions',
        Type: 'MultiSelect',
        Required: false,
        Visible: true,
        AnswerOptions: [option(G.optEu, 'EU'), option(G.optUs, 'US')],
      },
    ],
  ],
  ['thirdpartycontractcustomfields', []],
  [
    'thirdparty',
    [
      { Id: G.acme, Name: 'Acme', LeiCode: null },
      { Id: G.twinA, Name: 'Twin', LeiCode: null },
      { Id: G.twinB, Name: 'Twin', LeiCode: null },
    ],
  ],
  [
    'tasks',
    [
      {
        Id: G.taskTodo,
        Identifier: 'TASK-1',
        Name: 'Check access',
        Description: null,
        Status: 'To do',
        Score: null,
        Comment: null,
        ActionDate: '2025-05-01',
        ResponsibleUser: 'Ann',
        Reviewer: 'Bob',
        NotificationPeriods: [],
      },
      {
        Id: G.taskReview,
        Identifier: 'TASK-2',
        Name: 'Review logs',
        Description: 'Weekly',
        Status: 'Ready for review',
        Score: 3,
        Comment: 'ok',
        ActionDate: null,
        ResponsibleUser: 'Ann',
        Reviewer: 'Bob',
        NotificationPeriods: ['P1'],
      },
    ],
  ],
  [
    'organizations',
    [
      { Id: G.orgHead, Name: 'Head Office', ParentId: null },
      { Id: G.orgFinance, Name: 'Finance', ParentId: G.orgHead },
      { Id: G.orgIt, Name: 'IT', ParentId: G.orgHead },
    ],
  ],
  [
    'users',
    [
      { Id: G.userAnn, Name: 'Ann', Email: 'ann@example.com', Deleted: false },
      { Id: G.userBob, Name: 'Bob', Email: 'bob@example.com', Deleted: false },
      { Id: G.userGone, Name: 'Gone Person', Email: 'gone@example.com', Deleted: true },
    ],
  ],
  ['businessdimensions', [{ Id: G.dimPayments, Name: 'Payments' }]],
  [
    'frameworkdimensions',
    [
      { Id: G.dimIso, Name: 'ISO 27001' },
      { Id: G.dimDora, Name: 'DORA' },
      { Id: G.dimGdpr, Name: 'GDPR' },
    ],
  ],
]);

/** A row given as column → cell. */
export const row =
  (cells: Record<string, Cell>): RowInput =>
  (column) =>
    cells[column];

/** A flow set up on the catalogue's own environment (no binding) with the standing data above. */
export const setUp = <R, D extends DatasetId>(flow: Flow<R, D>): PreparedFlow<R, D> =>
  flow.setup(standing, flowContext(flow, catalogueEnvironment(), standing));

/** A create's answer as the client's send gives it: the new record's GUID in `Id`, as the catalogue has it. */
export const created = (Id: string): Answer => ({ status: 201, headers: {}, body: { Id } });
