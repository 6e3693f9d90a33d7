import {
  encodeRequest,
  getAt,
  indexList,
  recordDecoder,
  setAt,
  wireRequest,
  type BoundDataset,
  type BoundOperation,
  type Lists,
  type WireRequest,
} from '../../catalog';
import type { Cell, ColumnSpec } from '../../workbook/port';
import type { DataRecord, Standing } from '../api';
import type { AnyFlow, Call, FlowId } from '../flow';
import { INCIDENT_COLUMNS } from '../flows/incidents';
import { CONTRACT_COLUMNS } from '../flows/contracts';
import { TASK_COLUMNS } from '../flows/tasks';
import { THIRD_PARTY_COLUMNS } from '../flows/thirdparties';
import { flowAvailability } from './availability';
import { fitFlow, type FittedFlow } from './fitted-flow';
import { listsNeeded, type BoundEnvironment } from './context';
import { encodeCall, fileOperation } from './encode';

/**
 * Example requests: what one sample row of a flow sends on an environment, made by the write-back itself
 * (the flow reads the row, builds its calls, and each call is encoded through the environment's binding
 * exactly as `sendCall` encodes it before the client sends `wireRequest` of it). The import report ends each
 * bound write operation with one, and the taskpane's flow notice shows the same, so an admin sees what will
 * be sent before anyone posts. The sample row is typed from standing data the caller passes (the sandbox's:
 * src/sandbox/data/sample.ts), every template column filled where this environment accepts a value.
 */
export interface ExampleRequest {
  /** The catalogue operation the request goes to. */
  operation: string;
  /** The catalogue's name for it: "Create an incident". */
  title: string;
  /** Where the file has it: "POST /incidents/{id}/links (Incidents_AddLink)". */
  file: string;
  /** A follow-up sent to the record the row makes (an incident's hyperlink): its path names a sample record. */
  toMade?: true;
  /** The flow's control cell that chose this call ("Action: Update"), when the flow has one. */
  variant?: string;
  /** The sample row's typed cells, by column. */
  row: Readonly<Record<string, Cell>>;
  /** What goes on the wire; absent when this environment refuses the sample row (`problems` say why). */
  wire?: WireRequest;
  /** "Column: message" for every error that stopped the sample row. */
  problems?: string[];
}

const SAMPLE_DATE = '2026-03-02';
const SAMPLE_GUID = '16fd2706-8baf-433b-82eb-8c7fada847da';
const READY_FOR_REVIEW = /ready for review|in review/i;

const firstOf = (standing: Standing, id: string, ok: (r: DataRecord) => boolean = () => true) =>
  (standing.get(id) ?? []).find(ok);
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const nameIn = (standing: Standing, id: string, n = 0) =>
  text((standing.get(id) ?? []).filter((r) => r.Deleted !== true && r.Archived !== true)[n]?.Name);

/** Text a person would type in a flow's fixed columns that have no dropdown. */
const TEXT: Readonly<Record<FlowId, Readonly<Record<string, (s: Standing) => Cell | undefined>>>> = {
  incidents: {
    [INCIDENT_COLUMNS.name]: () => 'Water in the server room',
    [INCIDENT_COLUMNS.rootCause]: () => 'A burst pipe',
    [INCIDENT_COLUMNS.description]: () => 'Water leaked into the server room overnight.',
    [INCIDENT_COLUMNS.hyperlink]: () => 'https://intranet.example.com/incidents/flood',
  },
  thirdparties: {
    [THIRD_PARTY_COLUMNS.name]: () => 'Northwind Hosting B.V.',
    [THIRD_PARTY_COLUMNS.lei]: (s) => text(firstOf(s, 'thirdparty', (r) => text(r.LeiCode) !== undefined)?.LeiCode),
  },
  contracts: {
    [CONTRACT_COLUMNS.thirdParty]: (s) => nameIn(s, 'thirdparty'),
    [CONTRACT_COLUMNS.name]: () => 'Hosting agreement 2026',
    [CONTRACT_COLUMNS.services]: () => 'Hosting; Support',
  },
  tasks: {
    [TASK_COLUMNS.task]: (s) => text(firstOf(s, 'tasks', (r) => !READY_FOR_REVIEW.test(String(r.Status ?? '')))?.Id),
    [TASK_COLUMNS.name]: () => 'Quarterly access review',
    [TASK_COLUMNS.description]: () => 'Review who has access to the payment systems.',
    [TASK_COLUMNS.responsible]: (s) => nameIn(s, 'users', 0),
    [TASK_COLUMNS.reviewer]: (s) => nameIn(s, 'users', 1),
    [TASK_COLUMNS.comment]: () => 'Reviewed with the team',
    [TASK_COLUMNS.notificationPeriods]: (s) => {
      const periods = firstOf(s, 'tasks', (r) => Array.isArray(r.NotificationPeriods) && r.NotificationPeriods.length > 0)
        ?.NotificationPeriods as unknown[] | undefined;
      return text(periods?.[0]);
    },
  },
};

/**
 * A cell for a column: the flow's sample text (from the whole sample: a name is typed even where this
 * environment has no list to offer it from), else the dropdown's first choice (two where it takes several),
 * else by format.
 */
function sampleCell(flow: FlowId, column: ColumnSpec, sample: Standing): Cell {
  const own = TEXT[flow][column.name]?.(sample);
  if (own !== undefined) return own;
  // A list column the environment offers no dropdown for, named after its list ("Framework dimensions").
  const named = nameIn(sample, column.name.toLowerCase().replace(/\W/g, ''));
  if (named !== undefined && !column.list) return named;
  const values = column.list?.values ?? [];
  if (values.length) return column.list?.allowOther && values.length > 1 ? `${values[0]}; ${values[1]}` : values[0]!;
  switch (column.format) {
    case 'number':
    case 'integer':
      return 3;
    case 'boolean':
      return true;
    case 'date':
    case 'datetime':
      return SAMPLE_DATE;
    default:
      return /guid/i.test(column.name) ? SAMPLE_GUID : `Sample ${column.name.toLowerCase()}`;
  }
}

/**
 * The standing data this environment gives the flow, as its client reads it. A dataset it lacks is not read
 * there, so not here either; a bound dataset's records are what its file's records can carry: encoded in the
 * file's record shape and decoded back, as a bound service sends them and the client reads them (a custom
 * field whose answer options the file lists by name only has options without GUIDs, so answers go by name).
 */
function environmentStanding(flow: AnyFlow, environment: BoundEnvironment, sample: Standing): Standing {
  const ids = new Set([...flow.standingDatasets, flow.reconcileDataset, ...listsNeeded(flow, environment)]);
  const has = (id: string) => !environment.endpoints || (environment.endpoints[id] !== undefined && !environment.endpoints[id].unavailable);
  const lists: Record<string, ReturnType<typeof indexList>> = {};
  for (const [id, records] of sample)
    lists[id] = indexList(records.flatMap((r) => {
      const guid = text(r.Id ?? r.GUID);
      const name = text(r.Name);
      return guid && name ? [{ id: guid, name }] : [];
    }));
  const out = new Map<string, readonly DataRecord[]>();
  for (const [id, records] of sample) {
    if (!ids.has(id) || !has(id)) continue;
    const ds = environment.catalog.endpoints.find((e) => e.id === id);
    out.set(id, ds?.kind === 'dataset' && ds.binding?.kind === 'dataset' ? records.map(asServed(ds.binding, lists)) : records);
  }
  return out;
}

function asServed(ds: BoundDataset, lists: Lists): (r: DataRecord) => DataRecord {
  const decode = recordDecoder(ds, lists);
  const body = ds.placements.filter((p) => p.in === 'body' && p.at !== '');
  return (r) => {
    const served: Record<string, unknown> = {};
    for (const p of body) {
      if (r[p.field] === undefined || r[p.field] === null) continue;
      const one: BoundOperation = { kind: 'operation', method: 'POST', path: '/', file: ds.file, how: ds.how, placements: [{ ...p, required: false }], extras: [], answer: null };
      const unit = p.encoding.kind === 'number-unit' ? { [p.encoding.unitField]: r[p.encoding.unitField] } : {};
      const encoded = encodeRequest(one, { [p.field]: r[p.field], ...unit }, lists);
      const v = encoded.ok ? getAt(encoded.request.body, p.at) : undefined;
      if (v !== undefined) setAt(served, p.at, v);
    }
    return decode(served);
  };
}

/**
 * The sample row read by the flow on this environment: every column typed, then the cells this environment
 * refuses cleared (a custom field of a type the row did not choose, a value the file cannot take), until
 * the row reads without errors or only required and control cells are refused.
 */
function readSample(bound: FittedFlow, columns: readonly ColumnSpec[], row: Record<string, Cell>) {
  const keep = new Set([...bound.requiredColumns, ...(bound.flow.controls ?? [])]);
  for (let pass = 0; ; pass++) {
    const read = bound.read((column) => row[column] ?? null);
    const errors = read.problems.filter((p) => p.severity === 'error');
    const clear = errors.map((p) => p.column).filter((c) => !keep.has(c) && row[c] !== undefined);
    if (!errors.length || !clear.length || pass === columns.length) return { read, errors };
    for (const c of clear) delete row[c];
  }
}

/** The example requests of one flow on one environment: one per call of the sample row, per control value. */
export function flowExamples(flow: AnyFlow, environment: BoundEnvironment, sample: Standing): ExampleRequest[] {
  const availability = flowAvailability(flow, environment);
  if (availability.post.kind === 'unavailable') return [];
  const standing = environmentStanding(flow, environment, sample);
  const bound = fitFlow(flow, environment, standing, availability);
  const columns = bound.templateColumns('Lists');
  // A control column (a task's Action) chooses the call: one row per choice.
  const control = columns.find((c) => flow.controls?.includes(c.name) && c.list?.values.length);
  const variants = control ? control.list!.values.map((v) => ({ [control.name]: v })) : [{}];
  // A follow-up goes to the record the row made: a record of the flow's kind stands for it.
  const made = text(firstOf(standing, flow.reconcileDataset)?.Id) ?? SAMPLE_GUID;
  const out: ExampleRequest[] = [];
  for (const variant of variants) {
    const row: Record<string, Cell> = {};
    for (const c of columns) row[c.name] = sampleCell(flow.id, c, sample);
    Object.assign(row, variant);
    const { read, errors } = readSample(bound, columns, row);
    const label = control ? `${control.name}: ${String(variant[control.name])}` : undefined;
    const base = { ...(label ? { variant: label } : {}), row: { ...row } };
    if (read.request === undefined) {
      const call = mainCall(bound, row);
      if (call)
        out.push({
          ...base,
          operation: call,
          title: environment.catalog.operation(call).title,
          file: fileOperation(environment.operation(call)),
          problems: errors.map((p) => `${p.column}: ${p.message}`),
        });
      continue;
    }
    const step = bound.followUp(read.request);
    const calls: Call[] = [bound.prepared.call(read.request), ...(step ? [step.call(made)] : [])];
    calls.forEach((call, i) => {
      const op = environment.operation(call.operation);
      const encoded = encodeCall(bound.ctx, call, read.extra);
      out.push({
        ...base,
        operation: call.operation,
        title: environment.catalog.operation(call.operation).title,
        file: fileOperation(op),
        ...(i > 0 ? { toMade: true as const } : {}),
        ...(encoded.ok
          ? { wire: wireRequest(encoded.request) }
          : { problems: encoded.problems.map((p) => `${p.field}: ${p.message}`) }),
      });
    });
  }
  return out;
}

/**
 * The operation a refused sample row would have called: the flow's main one, else (a task's Action) the call
 * of the row with only its required and control cells.
 */
function mainCall(bound: FittedFlow, row: Readonly<Record<string, Cell>>): string | undefined {
  if (bound.flow.operations[0]) return bound.flow.operations[0];
  const keep = new Set([...bound.requiredColumns, ...(bound.flow.controls ?? [])]);
  const request = bound.read((column) => (keep.has(column) ? (row[column] ?? null) : null)).request;
  return request === undefined ? undefined : bound.prepared.call(request).operation;
}
