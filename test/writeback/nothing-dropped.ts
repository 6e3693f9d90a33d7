/**
 * NOTHING DROPPED, checked from the outside: for every flow on an environment (its binding), a template is
 * made, a valid row is filled in every column the template has, the row is posted through the real
 * write-back (validation, encoding, runner) to a stand-in that only records the requests, and every
 * non-empty cell is looked for in the request at the place the binding gives its field (a body pointer, a
 * path or query parameter): there, and holding the typed value (the name, or the GUID the name stands for,
 * the date, the number, the file's spelling of an enum value). Reusable: the corpus of customer files runs
 * it once per file (see /work/coord/writeback-harness.md).
 */
import {
  formatDate,
  getAt,
  replacesFields,
  templateParams,
  type Answer,
  type BoundOperation,
  type EncodedRequest,
  type Lists,
  type Placement,
} from '../../src/catalog';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell, ColumnSpec } from '../../src/workbook/port';
import { loadStanding, type Standing, type WritebackApi } from '../../src/writeback/api';
import { flowAvailability, type EnvironmentInfo } from '../../src/writeback/environment/availability';
import { fitFlow } from '../../src/writeback/environment/fitted-flow';
import { bindEnvironment, listsNeeded, type BoundEnvironment } from '../../src/writeback/environment/context';
import type { AnyFlow, Call, FlowId, Place } from '../../src/writeback/flow';
import { FLOWS } from '../../src/writeback/flows';
import { preparePost } from '../../src/writeback/post';
import { isOwnColumn } from '../../src/writeback/rows/rowkey';
import { createTemplate } from '../../src/writeback/template';

export interface NothingDroppedOptions {
  /** The environment as the relay describes it, its binding included (null or absent: the catalogue's own). */
  environment: EnvironmentInfo;
  /** Where standing data is read (the bound sandbox through the client, or a stand-in); nothing is sent through it. */
  api: Pick<WritebackApi, 'download'>;
  /** The flows to check; default every flow (one that cannot post on the environment is reported as unavailable). */
  flows?: readonly FlowId[];
  /** Rows to post per flow, by column header; default one row filled in every column (`fillRows`). */
  rows?: Partial<Record<FlowId, readonly Record<string, Cell>[]>>;
  /** What the stand-in records of each request (the harness's own test loses a value here on purpose). */
  record?(sent: SentRequest): SentRequest;
}

export interface SentRequest {
  operationId: string;
  request: EncodedRequest;
}

export interface FlowCheck {
  flow: FlowId;
  /** False: the flow cannot post on this environment (the reason is in `unavailable`); nothing was checked. */
  available: boolean;
  unavailable?: string;
  /** The template's input columns on this environment. */
  columns: string[];
  rows: Record<string, Cell>[];
  /** Non-empty cells found where the binding wants them. */
  cellsChecked: number;
  /**
   * Cells a flow's own rules refused on their own cell for the row as filled (a column the row's task
   * action does not send, a combination), with the code and message: each was then cleared and the row
   * posted without it. A cell neither here nor found in a request is a failure.
   */
  marked: { row: number; column: string; code: string; message: string }[];
  requests: SentRequest[];
}

export interface NothingDroppedReport {
  flows: FlowCheck[];
  /** One line per value not where the binding wants it, or per row that was expected to be valid and was not. */
  failures: string[];
}

/** A create's answer in the shape the binding reads, so the run gets on to follow-up steps. */
function answerFor(op: BoundOperation, n: number): Answer {
  const id = `77777777-0000-4000-8000-${String(n).padStart(12, '0')}`;
  if (op.answer?.in === 'header') return { status: 201, headers: { location: `/created/${id}` }, body: undefined };
  if (op.answer && op.answer.at !== '') {
    const body: Record<string, unknown> = {};
    let at = body;
    const parts = op.answer.at.slice(1).split('/');
    parts.slice(0, -1).forEach((p) => (at = (at[p] = {}) as Record<string, unknown>));
    at[parts[parts.length - 1]!] = id;
    return { status: 201, headers: {}, body };
  }
  return { status: 201, headers: {}, body: op.answer ? id : { Id: id } };
}

/** A recording stand-in for the client: standing data from `read`, every request kept and answered. */
export function recordingApi(
  read: Pick<WritebackApi, 'download'>,
  env: BoundEnvironment,
  sent: SentRequest[],
  record: (s: SentRequest) => SentRequest = (s) => s,
): WritebackApi {
  return {
    download: (id, o) => read.download(id, o),
    async send(operationId, request) {
      sent.push(record({ operationId, request }));
      return answerFor(env.operation(operationId), sent.length);
    },
  };
}

const VALID_LEI = '5493001KJTIIGC8Y1R12';
const PEOPLE = /assessor|responsible|informed|reviewer|user|owner/i;

/**
 * One row per flow filled in every template column with a value the flow accepts from this standing data
 * (tasks: an update, a score-and-status and an advance, each on its own task). Cells a flow's own rules
 * refuse in this combination are cleared by `checkNothingDropped` before posting, and named in its report.
 */
export function fillRows(
  flow: AnyFlow,
  columns: readonly ColumnSpec[],
  standing: Standing,
  env: BoundEnvironment,
): Record<string, Cell>[] {
  const users = (standing.get('users') ?? []).filter((u) => u.Deleted !== true).map((u) => String(u.Name));
  let dates = 0;
  const value = (c: ColumnSpec): Cell => {
    if (/lei/i.test(c.name)) return VALID_LEI;
    if (/hyperlink|url|link/i.test(c.name)) return 'https://example.com/nothing-dropped';
    if (c.format === 'date' || c.format === 'datetime') return `2025-0${Math.min(++dates * 2, 9)}-01`;
    if (c.format === 'number' || c.format === 'integer') return 3;
    if (c.format === 'boolean') return true;
    if (c.list?.values.length) return c.list.values[0]!;
    if (PEOPLE.test(c.name) && users.length) return users[0]!;
    return `ND ${c.name}`;
  };
  const row = Object.fromEntries(columns.map((c) => [c.name, value(c)]));
  if (flow.id === 'incidents') {
    // Every active type, so every custom field column belongs to a type the row selects.
    const types = (standing.get('incidenttypes') ?? []).filter((t) => t.Archived !== true).map((t) => String(t.Name));
    if ('Incident types' in row && types.length) row['Incident types'] = types.join('; ');
  }
  if (flow.id !== 'tasks') return [row];
  // Tasks: one row per action, on a task of its own, with EVERY column typed: what the action does not send
  // must be refused on its own cell (checkNothingDropped reports those marks), the rest must arrive.
  const todo = (standing.get('tasks') ?? []).filter((t) => t.Status === 'To do');
  // A task of its own per row where there are enough; rows on one task are sent one after the other.
  const task = (i: number) => {
    const t = todo[i] ?? todo[0];
    return String(t?.Identifier ?? t?.Id ?? '');
  };
  // Last, an update with the comment alone: its full update carries every other field (never emptied, see blanked).
  const alone = Object.fromEntries(Object.entries(row).filter(([c]) => c === 'Comment' || env.operation('task-update-v2').extras.some((x) => x.header === c && x.required)));
  const rows = [
    { operation: 'task-update-v2', row: { ...row, Task: task(0), Action: 'Update' } },
    { operation: 'task-score-status', row: { ...row, Task: task(1), Action: 'Score and status' } },
    { operation: 'task-advance', row: { ...row, Task: task(2), Action: 'Advance' } },
    { operation: 'task-update-v2', row: { ...alone, Task: task(3), Action: 'Update' } },
  ];
  // An action whose operation the environment lacks has no row (its rows are refused, availability.ts).
  return rows.filter((r) => !env.endpoints?.[r.operation]?.unavailable).map((r) => r.row);
}

/**
 * Errors that are the encoding's, never a rule's: a filled-in-everything row must not meet them. Any other
 * error is a flow's rule for this combination (a task action's columns, a custom field of another type):
 * its cell is cleared and reported in `marked`.
 */
const ENCODING_CODES = new Set(['not-placed', 'no-list', 'not-a-guid', 'bad-date', 'bad-number', 'one-value', 'bad-value', 'required']);

/** The value at a placement in a request: a body pointer, a path parameter, query parameters. */
function at(op: BoundOperation, p: Pick<Placement, 'in' | 'at'>, r: EncodedRequest): unknown {
  if (p.in === 'body') return getAt(r.body, p.at);
  if (p.in === 'query') {
    const values = r.query.filter(([k]) => k === p.at).map(([, v]) => v);
    return values.length ? values : undefined;
  }
  const names = templateParams(op.path);
  const segments = op.path.split('/');
  const actual = r.path.split('/');
  const i = segments.indexOf(`{${p.at}}`);
  return i >= 0 && names.includes(p.at) ? decodeURIComponent(actual[i] ?? '') : undefined;
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The spellings a typed item may have in a request: as typed, as the catalogue has it, the GUID a list gives it. */
function spellings(item: string, lists: Lists): string[] {
  const out = [item];
  for (const index of Object.values(lists)) {
    const r = index?.resolve(item);
    if (r?.ok) out.push(r.id, r.name);
    const name = index?.nameOf(item);
    if (name !== undefined) out.push(name);
  }
  return out.map((s) => s.toLowerCase());
}

function atoms(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.flatMap(atoms);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).flatMap(atoms);
  return [String(v)];
}

export async function checkNothingDropped(o: NothingDroppedOptions): Promise<NothingDroppedReport> {
  const failures: string[] = [];
  const flows: FlowCheck[] = [];
  const env = bindEnvironment(o.environment);
  for (const flow of FLOWS.filter((f) => !o.flows || o.flows.includes(f.id))) {
    const availability = flowAvailability(flow, env);
    const check: FlowCheck = { flow: flow.id, available: true, columns: [], rows: [], cellsChecked: 0, requests: [], marked: [] };
    flows.push(check);
    if (availability.post.kind === 'unavailable') {
      check.available = false;
      check.unavailable = availability.post.message;
      continue;
    }
    const sent: SentRequest[] = [];
    const api = recordingApi(o.api, env, sent, o.record);
    const standing = await loadStanding(api, flow.standingDatasets, undefined, availability.lacking, listsNeeded(flow, env));
    const bound = fitFlow(flow, env, standing, availability);
    const workbook = createMemoryWorkbook();
    const shape = await createTemplate({ api, workbook, flow, environment: o.environment });
    const specs = bound.templateColumns('').filter((c) => shape.columns.includes(c.name));
    check.columns = specs.map((c) => c.name);
    const rows = (o.rows?.[flow.id] ?? fillRows(flow, specs, standing, env)).map((r) => ({ ...r }));
    const write = () => workbook.writeRows(shape.name, 0, rows.map((r) => shape.columns.map((c) => r[c] ?? null)));
    await write();
    let plan = await preparePost({ api, workbook, table: shape.name, flow, environment: o.environment });
    // Cells a flow's own rules refuse in this combination (a custom field of a type, a date order) are cleared.
    for (let round = 0; round < 3; round++) {
      const refused = plan.validation.problems.filter((p) => p.severity === 'error' && p.row >= 0 && !ENCODING_CODES.has(p.code));
      if (!refused.length || o.rows?.[flow.id]) break;
      for (const p of refused) {
        if (rows[p.row]![p.column] === undefined || rows[p.row]![p.column] === null) continue;
        check.marked.push({ row: p.row, column: p.column, code: p.code, message: p.message });
        delete rows[p.row]![p.column];
      }
      await write();
      plan = await preparePost({ api, workbook, table: shape.name, flow, environment: o.environment });
    }
    check.rows = rows;
    for (const p of plan.validation.problems.filter((x) => x.severity === 'error'))
      failures.push(`${flow.title} row ${p.row + 1}, ${p.column}: ${p.message} (a valid row was expected)`);
    if (plan.availability.post.kind === 'unavailable') continue;
    const c = plan.confirmation;
    const summary = await plan.run({ concurrency: 1, sleep: async () => undefined, ...(c ? { confirm: { environment: c.environment, rows: c.rows } } : {}) });
    check.requests = sent;
    for (const out of summary.outcomes)
      if (out.status !== 'created' && out.status !== 'done')
        failures.push(`${flow.title} row ${out.row + 1}: ${out.status}, ${out.message}`);

    // With one row at a time, the requests come in sheet order: each row's call, then its follow-up.
    let next = 0;
    plan.validation.rows.forEach((r) => {
      const read = bound.read((column) => rows[r.row]![column] ?? undefined);
      if (read.request === undefined) return;
      const calls: Call[] = [bound.prepared.call(read.request)];
      const step = bound.followUp(read.request);
      const requests = sent.slice(next, next + 1 + (step ? 1 : 0));
      next += requests.length;
      const made = summary.outcomes.find((x) => x.row === r.row)?.guid;
      if (step && made) calls.push(step.call(made));
      check.cellsChecked += checkRow(flow, bound.ctx.lists, env, rows[r.row]!, calls, requests, failures, r.row);
      failures.push(...blanked(flow, env, standing, calls, requests, r.row));
    });
  }
  return { flows, failures };
}

/**
 * The service's strictest reader: a full update (catalog/full-update.ts) must not empty a field the task
 * has a value for (as read before the post) unless the admin declared it safe to omit. One line per field.
 */
function blanked(
  flow: AnyFlow,
  env: BoundEnvironment,
  standing: Standing,
  calls: readonly Call[],
  requests: readonly SentRequest[],
  index: number,
): string[] {
  const out: string[] = [];
  calls.forEach((call, i) => {
    const op = env.operation(call.operation);
    const request = requests[i]?.request;
    if (!request || !replacesFields(call.operation, op.method) || call.guid === undefined) return;
    const task = (standing.get('tasks') ?? []).find((t) => String(t.Id).toLowerCase() === call.guid!.toLowerCase());
    for (const p of op.placements) {
      if (p.in !== 'body' || op.omit?.includes(p.field) || empty(task?.[p.field])) continue;
      if (empty(at(op, p, request)))
        out.push(`${flow.title} row ${index + 1}: ${op.method} ${op.path} empties ${p.field} (${p.at}), which the task has as ${JSON.stringify(task![p.field])}`);
    }
  });
  return out;
}

/** Each non-empty input cell of one row, looked for where the binding places its field; the count found. */
function checkRow(
  flow: AnyFlow,
  lists: Lists,
  env: BoundEnvironment,
  row: Record<string, Cell>,
  calls: readonly Call[],
  requests: readonly SentRequest[],
  failures: string[],
  index: number,
): number {
  let found = 0;
  const where = `${flow.title} row ${index + 1}`;
  for (const [column, cell] of Object.entries(row)) {
    if (cell === null || cell === undefined || cell === '' || isOwnColumn(column) || flow.controls?.includes(column)) continue;
    const places: { call: Call; request: EncodedRequest; op: BoundOperation; in: Placement['in']; at: string; value: unknown; extra: boolean }[] = [];
    calls.forEach((call, i) => {
      const request = requests[i]?.request;
      if (!request) return;
      const op = env.operation(call.operation);
      const extra = op.extras.find((x) => x.header === column);
      if (extra) places.push({ call, request, op, in: extra.in, at: extra.at, value: cell, extra: true });
      const main = flow.operations[0];
      const own: readonly Place[] = flow.places[column] ?? (main ? [{ operation: main, field: 'CustomFields' }] : []);
      for (const place of own.filter((p) => p.operation === call.operation)) {
        const p =
          op.placements.find((x) => x.field === place.field) ??
          op.placements.find((x) => x.encoding.kind === 'number-unit' && x.encoding.unitField === place.field);
        if (!p) continue;
        const value = place.field === '{guid}' ? call.guid : (call.body as Record<string, unknown> | undefined)?.[place.field];
        places.push({ call, request, op, in: p.in, at: p.at, value, extra: false });
      }
    });
    if (!places.length) {
      failures.push(`${where}, ${column}: "${String(cell)}" has no place in any request this row made`);
      continue;
    }
    const problems: string[] = [];
    for (const p of places) {
      const there = at(p.op, p, p.request);
      if (empty(there)) {
        problems.push(`nothing at ${p.in} ${p.at} of ${p.op.method} ${p.op.path}`);
        continue;
      }
      const text = JSON.stringify(there).toLowerCase();
      const encoding = p.op.placements.find((x) => x.in === p.in && x.at === p.at)?.encoding;
      // A number and unit as an ISO duration ("P3M") keeps no spelling of the unit to look for.
      if (encoding?.kind === 'number-unit' && encoding.style === 'iso-duration') continue;
      // Each typed item (a list cell's names) must be there in one of its spellings; a custom field column's
      // value is among the answers of its field.
      const items = typeof cell === 'string' && cell.includes(';') ? cell.split(';').map((s) => s.trim()) : [String(cell)];
      const expected = p.extra ? items : atoms(p.value).length ? atoms(p.value).map(String) : items;
      const fileSpelled = (s: string) =>
        encoding?.kind === 'enum'
          ? (encoding.map[s] ?? s)
          : encoding?.kind === 'number-unit'
            ? (encoding.units[s] ?? s)
            : encoding?.kind === 'date' && encoding.pattern
              ? formatDate(s, encoding.pattern)
              : s;
      const missing = expected.filter(
        (s) => ![...spellings(s, lists), fileSpelled(s).toLowerCase()].some((w) => text.includes(w.replace(/"/g, ''))),
      );
      if (missing.length) problems.push(`${p.in} ${p.at} holds ${JSON.stringify(there)}, not ${missing.join(', ')}`);
    }
    // One place holding the value is enough where the flow puts a column in several fields (a task's score).
    if (problems.length === places.length) failures.push(`${where}, ${column}: ${problems.join('; ')}`);
    else found++;
  }
  return found;
}
