/**
 * Every customer file, through the doors a person uses on the command line (test/binding/corpus/README.md):
 * `grc-sheets binding import --accept` writes the binding; a sandbox bound to it stands in for that
 * customer's service; a RECORDING PROXY sits between the relay and the sandbox; `grc-sheets template` makes
 * each flow's template in a saved .xlsx; openpyxl types EVERY input column of it (as a person would, dates as
 * dates); `grc-sheets post` sends it through the relay; and again, in a second workbook, `template` and
 * `post` straight to the service with `--base-url --binding`. What the proxy saw is read at the places the
 * file wants each value (corpus/wants.ts, written from the files, not from the importer).
 *
 * A typed value not in the request where the file wants it is either said on its cell (a validation problem,
 * or the row's message naming the column) or a silent drop; there must be no silent drop, and on the corpus
 * nothing is refused either: every record is created, every task row done. Whatever the file, both doors must
 * send the same requests (one bound environment); the API files of test/binding/customers run through both
 * doors too, and their own wants (test/binding/customers/<name>.wants.ts: enums by meaning, date formats, custom
 * field shapes, form bodies) are read in what the proxy saw of the relay door, by the code customers.test.ts reads
 * them with (customers/read-wants.ts); what fails there today is listed in customers/known-gaps-cli.ts. A watch on
 * the sandbox's tasks (test/support/blanking.ts) fails any file whose writes empty a task field that had a value. Each command runs through its real entry
 * (the `run` main.ts calls) with real HTTP on loopback; the key comes from the variables a scheduler sets. One
 * sandbox, proxy and relay per file, one workbook per door holding every flow's template.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBinding } from '../../src/binding/load';
import { getAt, isGuid, leiWithCheckDigits, type Binding, type BoundOperation, type ExtraColumn } from '../../src/catalog';
import { run as bindingCli } from '../../src/cli/binding';
import { run as postCli } from '../../src/cli/post';
import { run as templateCli } from '../../src/cli/template';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { NOTIFICATION_PERIODS } from '../../src/sandbox/data/standing';
import { RESULT_COLUMNS } from '../../src/writeback/rows/results';
import { ROW_KEY_COLUMN } from '../../src/writeback/rows/rowkey';
import { ROW_STATE_COLUMN } from '../../src/writeback/rows/state';
import { WANTS, type FlowWants } from '../binding/corpus/wants';
import { listCell } from '../binding/world';
import { CLI_KNOWN_GAPS } from '../binding/customers/known-gaps-cli';
import {
  checkAgainstGaps,
  columnProblems,
  CUSTOMER_WANTS,
  customFieldCells as customerFieldCells,
  customFieldProblems,
  pathProblems,
  type Received,
} from '../binding/customers/read-wants';
import type { FlowWants as CustomerFlowWants } from '../binding/customers/wants';
import { watchBlanking, type BlankingWatch } from '../support/blanking';
import { fillTemplates, type Typed } from '../support/fill-templates';
import { startRecordingProxy, type Recorded, type RecordingProxy } from '../support/recording-proxy';
import { valuesAt } from '../support/wants-check';

type Json = Record<string, unknown>;
type Row = Record<string, Typed>;
type FlowId = 'incidents' | 'thirdparties' | 'contracts' | 'tasks';
type Door = 'relay' | 'direct';

const FILES = Object.keys(WANTS);
const corpus = (name: string) => join(__dirname, '..', 'binding', 'corpus', name);
const NOT_TYPED = new Set<string>([...RESULT_COLUMNS, ROW_KEY_COLUMN, ROW_STATE_COLUMN]);
/** A GUID of the customer's own that the sandbox keeps no list of (an extra column the file requires). */
const OWN_GUID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';

interface World {
  file: string;
  dir: string;
  bindingFile: string;
  binding: Binding;
  sandbox: Sandbox;
  proxy: RecordingProxy;
  relay: Relay;
  /** Every standing name by GUID: what a GUID in a request is compared by. */
  nameOf: Map<string, string>;
  env: Record<string, string>;
  /** Every task field a write emptied (test/support/blanking.ts), through either door. */
  blanking: BlankingWatch;
}

/** `grc-sheets binding import`, its printing kept (it prints with process.stdout and console). */
async function importFile(file: string, out: string): Promise<{ code: number; text: string }> {
  const text: string[] = [];
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((s) => (text.push(String(s)), true)),
    jest.spyOn(console, 'log').mockImplementation((s) => void text.push(String(s))),
    jest.spyOn(console, 'error').mockImplementation((s) => void text.push(String(s))),
  ];
  try {
    return { code: await bindingCli(['import', file, '--out', out, '--accept']), text: text.join('') };
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
}

/** A file the importer refuses (exit 2): one message naming the file, and nothing written. */
interface Refused {
  refused: string;
}

async function startWorld(file: string, path: string): Promise<World | Refused> {
  const dir = mkdtempSync(join(tmpdir(), 'grc-doors-'));
  const bindingFile = join(dir, 'binding.json');
  const imported = await importFile(path, bindingFile);
  // Only a file of the customers' folder may be refused (a spec version or a YAML feature not read yet): the
  // corpus files all import. Refused is said in one message naming the file, and nothing is written.
  if (imported.code === 2 && !WANTS[file]) {
    expect([imported.text, existsSync(bindingFile)]).toEqual([expect.stringContaining(`grc-sheets binding import: ${path}`), false]);
    expect(imported.text).toMatch(/Nothing was written\.\n?$/);
    rmSync(dir, { recursive: true, force: true });
    return { refused: imported.text };
  }
  // --accept takes the best candidate of every open decision: nothing is left open.
  expect([imported.code, imported.text.match(/DECISIONS FOR THE ADMIN: \d+/)?.[0]]).toEqual([0, expect.anything()]);
  const binding = loadBinding(bindingFile);
  const sandbox = await startSandbox({ scale: 40, seed: 11, binding, apiFile: path }).catch((e: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  const blanking = watchBlanking(sandbox.store);
  const proxy = await startRecordingProxy(new URL(sandbox.url).origin, { around: blanking.around });
  const relay = await startRelay({
    listen: { host: '127.0.0.1', port: 0 },
    environments: { acc: { baseUrl: `${proxy.url}${new URL(sandbox.url).pathname}`, binding: bindingFile, production: false } },
    logLevel: 'silent',
  }).catch(async (e: unknown) => {
    await proxy.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  const nameOf = new Map<string, string>();
  for (const list of ['organizations', 'users', 'incidenttypes', 'incidentclassifications', 'riskrootcausecategory', 'businessdimensions', 'frameworkdimensions', 'thirdparty'])
    for (const r of sandbox.store.list<Json>(list)) {
      const id = (r.Id ?? r.GUID) as string;
      if (typeof r.Name === 'string') nameOf.set(id.toLowerCase(), r.Name);
    }
  // A dropdown answer may go as its option's GUID: the option's name is what the user typed.
  for (const list of ['incidenttypecustomfields', 'thirdpartycustomfields', 'thirdpartycontractcustomfields'])
    for (const d of sandbox.store.list<Json>(list))
      for (const o of (d.AnswerOptions as { Id: string; Name: string }[] | undefined) ?? []) nameOf.set(o.Id.toLowerCase(), o.Name);
  const env = { GRC_SHEETS_KEY_ID: sandbox.demoKey!.identifier, GRC_SHEETS_KEY_PASSWORD: sandbox.demoKey!.password };
  return { file, dir, bindingFile, binding, sandbox, proxy, relay, nameOf, env, blanking };
}

async function stopWorld(w: World | Refused | undefined) {
  if (!w || 'refused' in w) return;
  await w.relay.close();
  await w.proxy.close();
  await w.sandbox.close();
  rmSync(w.dir, { recursive: true, force: true });
}

/** How each door is reached on the command line. */
const connect = (w: World, door: Door) =>
  door === 'relay'
    ? ['--relay', w.relay.url, '--env', 'acc']
    : ['--base-url', `${w.proxy.url}${new URL(w.sandbox.url).pathname}`, '--binding', w.bindingFile, '--env', 'acc'];

function io(w: World) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { env: w.env, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), fetch: globalThis.fetch } };
}

const op = (w: World, id: string) => w.binding.endpoints[id] as BoundOperation | undefined;
const extrasOf = (w: World, ids: string[]): ExtraColumn[] => ids.flatMap((id) => op(w, id)?.extras ?? []);

/** A typed value as the service would compare it: names for GUIDs, ISO dates without a time, lower case. */
function norm(w: World, v: unknown): string[] {
  const one = (x: unknown): string => {
    let s = typeof x === 'string' ? x : x !== null && typeof x === 'object' && 'date' in x ? String((x as { date: string }).date) : JSON.stringify(x);
    if (isGuid(s)) s = w.nameOf.get(s.toLowerCase()) ?? s;
    if (/^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z?$/.test(s)) s = s.slice(0, 10);
    return s.trim().toLowerCase();
  };
  if (Array.isArray(v)) return v.flatMap((x) => norm(w, x));
  if (typeof v === 'string' && v.includes(';')) return v.split(';').map(one);
  return v === undefined || v === null ? [] : [one(v)];
}

/** What a request holds where an extra column's value goes: its body pointer, query parameter or path. */
function extraValues(w: World, got: Recorded, extra: ExtraColumn): string[] {
  const at = extra.in === 'query' ? new URLSearchParams(got.query).getAll(extra.at) : extra.in === 'path' ? got.path.split('/') : valuesAt(got.body, extra.at);
  return at.flatMap((v) => norm(w, v));
}

interface CustomFieldColumn {
  column: string;
  id: string;
  date: boolean;
  /** The field's definition as the sandbox keeps it. */
  def: Json;
}

/**
 * What the corpus wants may say beyond this branch's corpus/wants.ts (the fields h/forms adds there and
 * test/binding/corpus.test.ts reads): enums by meaning, a flow's date pattern, custom answers as a map keyed by the
 * field's GUID, multi-select answers joined by a separator, a date pattern for date answers. Read when present.
 */
type CorpusFlowWants = FlowWants & {
  datePattern?: string;
  enums?: Record<string, Record<string, string | number>>;
  customFields?: NonNullable<FlowWants['customFields']> & { map?: boolean; separator?: string; datePattern?: string };
};

/** A date written in a pattern of dd, MM and yyyy (dd-MM-yyyy, dd/MM/yyyy) as ISO, or undefined when it is not one. */
function readDate(text: string, pattern: string): string | undefined {
  const order: string[] = [];
  const re = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/yyyy|MM|dd/g, (t) => (order.push(t), t === 'yyyy' ? '(\\d{4})' : '(\\d{2})'));
  const m = new RegExp(`^${re}$`).exec(text);
  if (!m) return undefined;
  const at = (t: string) => m[order.indexOf(t) + 1]!;
  return `${at('yyyy')}-${at('MM')}-${at('dd')}`;
}

/** Each typed value not found in the request where the file wants it: `[column, what]`. */
function missing(w: World, row: Row, got: Recorded | undefined, wants: CorpusFlowWants, extras: ExtraColumn[], cf: CustomFieldColumn[], elsewhere: readonly string[] = []): [string, string][] {
  const out: [string, string][] = [];
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '' || column === 'Task' || column === 'Action' || elsewhere.includes(column)) continue;
    if (!got) {
      out.push([column, 'no request was sent']);
      continue;
    }
    // An enum the file writes by meaning: the typed name is looked for as the file's value of that meaning.
    const meant = wants.enums?.[column]?.[String(cell)];
    const typed = norm(w, meant ?? cell);
    const want = wants.columns[column];
    const extra = extras.find((x) => x.header === column);
    const field = cf.find((c) => c.column === column);
    if (want === 'path') {
      const guid = [...w.nameOf].find(([, n]) => n.toLowerCase() === typed[0])?.[0];
      if (!guid || !got.path.toLowerCase().includes(guid)) out.push([column, `"${String(cell)}" is not in the path ${got.path}`]);
    } else if (want !== undefined) {
      const pattern = wants.datePattern;
      const found = (Array.isArray(want) ? want : [want]).flatMap((p) => valuesAt(got.body, p).flatMap((v) => norm(w, pattern && typeof v === 'string' ? (readDate(v, pattern) ?? v) : v)));
      for (const t of typed) if (!found.includes(t)) out.push([column, `"${t}" not at ${String(want)} (found ${JSON.stringify(found)})`]);
    } else if (extra) {
      const found = extraValues(w, got, extra);
      for (const t of typed) if (!found.includes(t)) out.push([column, `(extra) "${t}" not at ${extra.in} ${extra.at}`]);
    } else if (field && wants.customFields) {
      const p = wants.customFields;
      // Every answer the request holds for the field (a map's member, or its entries), split where the file joins.
      const answers = p.map
        ? [Object.entries((getAt(got.body, p.at) ?? {}) as Json).find(([k]) => k.toLowerCase() === field.id.toLowerCase())?.[1]]
        : valuesAt(got.body, `${p.at}/*`)
            .filter((e) => getAt(e, p.guid) === field.id)
            .map((e) => (field.date && p.date ? getAt(e, p.date) : getAt(e, p.value)));
      const split = (x: unknown): unknown[] => (Array.isArray(x) ? x.flatMap(split) : typeof x === 'string' && p.separator ? x.split(p.separator) : [x]);
      const found = answers.flatMap(split).flatMap((x) => norm(w, field.date && p.datePattern && typeof x === 'string' ? (readDate(x, p.datePattern) ?? x) : x));
      for (const t of typed) if (!found.includes(t)) out.push([column, `(custom field) "${t}" not in ${p.at} (found ${JSON.stringify(found)})`]);
    } else if (column === 'Notice period' || column === 'Notice period unit') {
      continue; // a joined property, checked below
    } else out.push([column, 'a column whose value the file has no place for']);
  }
  if (got && wants.joinedNotice && row['Notice period'] !== undefined) {
    const v = getAt(got.body, wants.joinedNotice);
    const expected = `${String(row['Notice period'])} ${String(row['Notice period unit'])}`;
    if (v !== expected) out.push(['Notice period', `"${expected}" not at ${wants.joinedNotice} (found ${JSON.stringify(v)})`]);
  }
  return out;
}

/** A value for an extra column the file requires or offers: its first enum value, else by its cell type. */
function extraValue(x: ExtraColumn): Typed {
  if (x.values?.length) return x.values[0]!;
  switch (x.cell) {
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return 7;
    case 'date':
    case 'date-time':
      return { date: '2026-04-01' };
    case 'guid':
      return OWN_GUID;
    default:
      return `extra ${x.fileName}`;
  }
}

function customFieldCells(w: World, dataset: string, columns: readonly string[], only?: (d: Json) => boolean): { cells: Row; fields: CustomFieldColumn[] } {
  const cells: Row = {};
  const fields: CustomFieldColumn[] = [];
  for (const d of w.sandbox.store.list<Json>(dataset)) {
    const name = d.Name as string;
    const column = columns.find((c) => c === name || c.startsWith(`${name} [`));
    if (!column || (only && !only(d))) continue;
    const options = ((d.AnswerOptions as (string | { Name: string })[] | undefined) ?? []).map((o) => (typeof o === 'string' ? o : o.Name));
    cells[column] = d.Type === 'Date' ? { date: '2026-02-14' } : d.Type === 'Number' ? 42 : d.Type === 'Checkbox' ? true : (options[0] ?? `cf ${name}`);
    fields.push({ column, id: d.Id as string, date: d.Type === 'Date', def: d });
  }
  return { cells, fields };
}

/**
 * A customer file's custom field cells are typed as test/binding/customers.test.ts types them (a multi-select
 * of two options, a dropdown's second option), so that its wants read the same answers through either door.
 */
function fieldCells(w: World, dataset: string, columns: readonly string[], only?: (d: Json) => boolean): { cells: Row; fields: CustomFieldColumn[] } {
  if (!CUSTOMER_WANTS[w.file]) return customFieldCells(w, dataset, columns, only);
  const typed = customerFieldCells(w, dataset, columns, only);
  return {
    cells: Object.fromEntries(typed.map((f) => [f.column, f.def.Type === 'Date' ? { date: String(f.cell) } : (f.cell as Typed)])),
    fields: typed.map((f) => ({ column: f.column, id: f.def.Id as string, date: f.def.Type === 'Date', def: f.def })),
  };
}

/** Only the columns the template has: a value for a column it lacks could not be typed. */
const onlyColumns = (row: Row, columns: readonly string[]): Row => Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k)));

/** One flow's rows for one door, and what the check needs to read them back. */
interface Plan {
  rows: Row[];
  custom: CustomFieldColumn[];
  /** Per row: how its request is recognised among those the proxy saw during the post. */
  requestOf: ((r: Recorded) => boolean)[];
  /** Columns nobody types on this file (the reason is in the comment where they are left out). */
  untyped?: string[];
  /** Tasks: the tasks each door advances or scores (a task moves on once). */
  ownTasks?: string[];
  /** Rows checked in the sandbox's store rather than at the wants' pointers: the task and its fields there. */
  stored?: { row: number; task: string; fields: Json }[];
}

const HYPERLINK = 'https://intranet.example.com/incidents/flood';
/** The end of the Comment of a customer file's comment-only Update row (what tells it from the full Update row). */
const ONLY_A_COMMENT = 'only a comment';
/** Each door's third party has an LEI code of its own. */
const lei = (door: Door) => leiWithCheckDigits(door === 'relay' ? '5493001KJTIIGC8Y1R' : '5493001KJTIIGC8Y2R');

function plan(w: World, flow: FlowId, door: Door, columns: readonly string[]): Plan {
  const tag = `${w.file} ${door}`;
  const mentions = (text: string) => (r: Recorded) => r.method !== 'GET' && (r.text.includes(text) || r.path.includes(text));
  if (flow === 'incidents') {
    const cell = (column: string, n = 0) => listCell(w, 'incident-create', column, n);
    const incidentRow = (name: string, typeIndex: number): Row => ({
      Name: name,
      Description: 'Water in the server room',
      'Reporting organization': cell('Reporting organization'),
      'Affected organizations': cell('Affected organizations', 1),
      'Incident types': cell('Incident types', typeIndex),
      Classification: cell('Classification'),
      'Root cause category': cell('Root cause category'),
      'Root cause': 'A burst pipe',
      'Date detected': { date: '2026-03-02' },
      'Date occurred': { date: '2026-03-01' },
      Assessors: cell('Assessors'),
      Responsible: cell('Responsible', 1),
      Informed: cell('Informed'),
      'Business dimensions': cell('Business dimensions'),
      'Framework dimensions': cell('Framework dimensions'),
    });
    // A type whose required custom fields the template has columns for: the service adds a hyperlink only to
    // an incident whose required fields are filled (spec, Incident rule 8).
    const fields = w.sandbox.store.list<Json>('incidenttypecustomfields');
    const types = w.sandbox.store.list<Json>('incidenttypes').filter((t) => t.Archived !== true);
    const type = types.find((t) => fields.filter((d) => d.IncidentTypeId === t.Id && d.Required === true).every((d) => columns.some((c) => c.startsWith(`${d.Name as string} [`)))) ?? types[0]!;
    // The first row is of that type and carries the hyperlink; one more row per other type whose custom
    // fields the template has columns for, so that every column is typed in some row. The fields of an
    // archived type keep their columns (for incidents made before), but no new incident can be of that type.
    const archived = w.sandbox.store.list<Json>('incidenttypes').filter((t) => t.Archived === true);
    const untyped = fields.filter((d) => archived.some((t) => t.Id === d.IncidentTypeId)).flatMap((d) => columns.filter((c) => c === d.Name || c.startsWith(`${d.Name as string} [`)));
    const withFields = types.filter((t) => t !== type && fields.some((d) => d.IncidentTypeId === t.Id && columns.some((c) => c === d.Name || c.startsWith(`${d.Name as string} [`))));
    const rows: Row[] = [];
    const custom: CustomFieldColumn[] = [];
    const requestOf: Plan['requestOf'] = [];
    for (const [k, t] of [type, ...withFields].entries()) {
      const c = fieldCells(w, 'incidenttypecustomfields', columns, (d) => d.IncidentTypeId === t.Id);
      const name = `doors ${tag} incident ${k + 1}`;
      const row: Row = {
        ...incidentRow(name, types.indexOf(t)),
        ...(k === 0 ? { Hyperlink: HYPERLINK } : {}),
        ...c.cells,
      };
      for (const x of extrasOf(w, ['incident-create', ...(k === 0 ? ['incident-hyperlink'] : [])])) row[x.header] = extraValue(x);
      rows.push(onlyColumns(row, columns));
      custom.push(...c.fields);
      requestOf.push(mentions(name));
    }
    return { rows, custom, requestOf, untyped };
  }
  if (flow === 'thirdparties') {
    const c = fieldCells(w, 'thirdpartycustomfields', columns);
    const name = `doors ${tag} party`;
    const row: Row = { Name: name, 'LEI code': lei(door), 'Framework dimensions': listCell(w, 'thirdparty-create', 'Framework dimensions'), ...c.cells };
    for (const x of extrasOf(w, ['thirdparty-create'])) row[x.header] = extraValue(x);
    return { rows: [onlyColumns(row, columns)], custom: c.fields, requestOf: [mentions(name)] };
  }
  if (flow === 'contracts') {
    const c = fieldCells(w, 'thirdpartycontractcustomfields', columns);
    const name = `doors ${tag} contract`;
    const row: Row = {
      'Third party': listCell(w, 'contract-create', 'Third party'),
      Name: name,
      Services: 'Cleaning',
      'Start date': { date: '2026-01-01' },
      'End date': { date: '2027-12-31' },
      'Notice period': 3,
      'Notice period unit': 'Months',
      ...c.cells,
    };
    for (const x of extrasOf(w, ['contract-create'])) row[x.header] = extraValue(x);
    return { rows: [onlyColumns(row, columns)], custom: c.fields, requestOf: [mentions(name)] };
  }
  // Tasks: an Update with every update column typed (the v2 update, which does not submit; both doors update
  // the same task with the same values), and an Advance of another task the demo key's owner is responsible
  // for (each door its own: a task moves on once).
  const n = door === 'relay' ? 0 : 1;
  const todo = w.sandbox.store.list<Json>('tasks').filter((t) => t.Status === 'To do');
  const owner = w.sandbox.store.list<Json>('users')[0]!.Name;
  const update = op(w, 'task-update-v2') ? todo.filter((t) => t.ResponsibleUser !== owner)[0] : undefined;
  const next = op(w, 'task-advance') ? todo.filter((t) => t.ResponsibleUser === owner)[n] : undefined;
  // Each action's row types the extra columns of its own operation: another action's would not be sent by it.
  const extrasFor = (id: string): Row => Object.fromEntries(extrasOf(w, [id]).map((x) => [x.header, extraValue(x)]));
  const rows: Row[] = [];
  const requestOf: Plan['requestOf'] = [];
  if (update) {
    rows.push(
      onlyColumns(
        {
          Task: update.Id as string,
          Action: 'Update',
          Name: `doors ${tag} task`,
          Description: 'Checked on site',
          'Responsible user': listCell(w, 'task-update-v2', 'Responsible user', 2),
          Reviewer: listCell(w, 'task-update-v2', 'Reviewer', 1),
          'Action date': { date: '2026-06-30' },
          Score: 4,
          Comment: `doors ${tag}`,
          // The sandbox's notification period identifiers (the spec shows none; src/sandbox/data/standing.ts).
          'Notification periods': `${NOTIFICATION_PERIODS[0]}; ${NOTIFICATION_PERIODS[2]}`,
          ...extrasFor('task-update-v2'),
        },
        columns,
      ),
    );
    requestOf.push(mentions(update.Id as string));
  }
  if (next) {
    rows.push(onlyColumns({ Task: next.Id as string, Action: 'Advance', ...extrasFor('task-advance') }, columns));
    requestOf.push(mentions(next.Id as string));
  }
  // Score and status of a third task (each door its own). The corpus's wants say nothing of this request's
  // shape: the task as the sandbox stored it is what is compared (stored).
  const scored = op(w, 'task-score-status') ? todo.filter((t) => t.ResponsibleUser !== owner)[1 + n] : undefined;
  const stored: NonNullable<Plan['stored']> = [];
  if (scored) {
    const row: Row = { Task: scored.Id as string, Action: 'Score and status', Score: 5, Comment: `doors ${tag} scored`, Status: 'In review', ...extrasFor('task-score-status') };
    stored.push({ row: rows.length, task: scored.Id as string, fields: { Score: 5, Comment: row.Comment, Status: 'In review' } });
    rows.push(onlyColumns(row, columns));
    requestOf.push(mentions(scored.Id as string));
  }
  // A customer file's tasks: an Update row with only Comment typed, on a task whose description and notification
  // periods have values (the same task through both doors: the full update sends what the task holds, and must
  // keep it; test/support/blanking.ts).
  const full = (t: Json) => typeof t.Description === 'string' && t.Description !== '' && ((t.NotificationPeriods as unknown[] | undefined) ?? []).length > 0;
  // The last such task (not the owner's): the rows above take the first ones, and the relay door's moved on
  // before the direct door's plan is made, so only the end of the list is the same for both doors.
  const kept = CUSTOMER_WANTS[w.file] && op(w, 'task-update-v2') ? todo.filter((t) => t.ResponsibleUser !== owner && full(t)).at(-1) : undefined;
  if (kept) {
    rows.push(onlyColumns({ Task: kept.Id as string, Action: 'Update', Comment: `doors ${tag} ${ONLY_A_COMMENT}` }, columns));
    requestOf.push(mentions(kept.Id as string));
  }
  return { rows, custom: [], requestOf, stored, ownTasks: [next, scored].flatMap((t) => (t ? [t.Id as string] : [])) };
}

const FLOW_OPS: Record<FlowId, string[]> = {
  incidents: ['incident-create'],
  thirdparties: ['thirdparty-create'],
  contracts: ['contract-create'],
  tasks: ['task-update-v2', 'task-advance'],
};

interface PostJson {
  ok: boolean;
  outcomes?: { row: number; status: string; guid: string; message: string }[];
  problems?: { row: number; column: string; severity: string; message: string }[];
  refused?: string;
  error?: string;
}

/** One flow posted through one door: its rows, the post's answer, and the requests the proxy saw for each row. */
interface Posted {
  flow: FlowId;
  plan: Plan;
  result: PostJson;
  /** Per row: its request (create or update), and the incident hyperlink's, as the proxy saw them. */
  requests: (Recorded | undefined)[];
  links: (Recorded | undefined)[];
}

/**
 * One door, the whole way: every available flow's template into one new workbook, one openpyxl run typing
 * every input column, one post per table; what the proxy saw is kept per row.
 */
async function throughDoor(w: World, door: Door): Promise<Posted[]> {
  const book = join(w.dir, `${door}.xlsx`);
  const flows = (Object.keys(FLOW_OPS) as FlowId[]).filter((f) => FLOW_OPS[f].some((id) => op(w, id)));
  const made: { flow: FlowId; table: string; sheet: string; columns: string[]; plan: Plan }[] = [];
  // A flow the binding cannot post is refused by template (exit 1, naming it), the workbook not made.
  for (const flow of (Object.keys(FLOW_OPS) as FlowId[]).filter((f) => !flows.includes(f))) {
    const cli = io(w);
    expect([flow, await templateCli(['--flow', flow, ...connect(w, door), '--json', book], cli.io)]).toEqual([flow, 1]);
    expect(cli.err.join('\n')).toMatch(/^grc-sheets template: .+ was not changed\.$/s);
  }
  for (const flow of flows) {
    const cli = io(w);
    const code = await templateCli(['--flow', flow, ...connect(w, door), '--json', book], cli.io);
    expect([flow, code, cli.err]).toEqual([flow, 0, []]);
    const t = JSON.parse(cli.out.join('\n')) as { table: string; sheet: string; columns: string[] };
    made.push({ flow, ...t, plan: plan(w, flow, door, t.columns) });
  }
  // EVERY input column of every template is typed in some row (the exceptions say why in plan()).
  const untyped = made.flatMap((m) => m.columns.filter((c) => !NOT_TYPED.has(c) && !m.plan.untyped?.includes(c) && !m.plan.rows.some((r) => r[c] !== undefined && r[c] !== '')).map((c) => `${m.flow}: ${c}`));
  expect(untyped).toEqual([]);
  if (made.length) fillTemplates(book, made.map((m) => ({ sheet: m.sheet, table: m.table, rows: m.plan.rows })));

  const posted: Posted[] = [];
  for (const m of made) {
    const from = w.proxy.recorded.length;
    const cli = io(w);
    const code = await postCli([book, '--table', m.table, ...connect(w, door), '--json'], cli.io);
    const result = JSON.parse(cli.out.join('\n')) as PostJson;
    expect([m.flow, result.refused ?? result.error ?? null]).toEqual([m.flow, null]);
    // The exit code is what --json's ok says.
    expect([m.flow, code]).toEqual([m.flow, result.ok ? 0 : 1]);
    const seen = w.proxy.recorded.slice(from).filter((r) => r.method !== 'GET');
    const requests = m.plan.rows.map((_, i) => seen.find(m.plan.requestOf[i]!));
    const links = m.plan.rows.map((row, i) => {
      const guid = result.outcomes?.find((o) => o.row === i)?.guid;
      return m.flow === 'incidents' && row.Hyperlink && guid ? seen.find((r) => r.path.includes(guid) && r !== requests[i]) : undefined;
    });
    posted.push({ flow: m.flow, plan: m.plan, result, requests, links });
  }
  return posted;
}

interface Finding {
  flow: FlowId;
  /** Typed values in the request where the file wants them. */
  landed: number;
  /** Typed values not sent, said on their cell (a validation problem or the row's message naming the column). */
  said: string[];
  /** Typed values neither sent where the file wants them nor said: must be none. */
  silent: string[];
  outcomes: [string, string][];
}

/** Each row's typed values looked for where the corpus file wants them, in what the proxy saw. */
function findings(w: World, posted: Posted[]): Finding[] {
  return posted.map(({ flow, plan: p, result, requests, links }) => {
    const wants = WANTS[w.file]![flow]!;
    const finding: Finding = { flow, landed: 0, said: [], silent: [], outcomes: [] };
    p.rows.forEach((row, i) => {
      const outcome = result.outcomes?.find((o) => o.row === i);
      finding.outcomes.push([outcome?.status ?? 'not posted', outcome?.message ?? '']);
      const kept = p.stored?.find((k) => k.row === i);
      if (kept) {
        const task = w.sandbox.store.find('tasks', kept.task) as Json | undefined;
        for (const [field, value] of Object.entries(kept.fields)) {
          if (task?.[field] === value) finding.landed++;
          else finding.silent.push(`row ${i + 1} ${field}: ${JSON.stringify(value)} is not the task's ${field} in the service (${JSON.stringify(task?.[field])})`);
        }
        return;
      }
      const linkExtras = flow === 'incidents' ? extrasOf(w, ['incident-hyperlink']) : [];
      const lost = missing(w, row, requests[i], wants, extrasOf(w, FLOW_OPS[flow]), p.custom, ['Hyperlink', ...linkExtras.map((x) => x.header)]);
      if (flow === 'incidents' && row.Hyperlink) {
        const link = links[i];
        if (!link || getAt(link.body, wants.hyperlink!) !== row.Hyperlink) lost.push(['Hyperlink', `"${String(row.Hyperlink)}" not at ${wants.hyperlink} of the hyperlink request`]);
        else finding.landed++;
        for (const x of linkExtras) if (row[x.header] !== undefined && !(link && extraValues(w, link, x).includes(norm(w, row[x.header])[0]!))) lost.push([x.header, `(extra of the hyperlink) not at ${x.in} ${x.at}`]);
      }
      const typedCells = Object.entries(row).filter(([c, v]) => v !== '' && c !== 'Task' && c !== 'Action').length;
      finding.landed += typedCells - new Set(lost.map(([c]) => c)).size - (row.Hyperlink ? 1 : 0);
      for (const [column, what] of lost) {
        const onCell = result.problems?.some((q) => q.row === i && q.column === column) || outcome?.message.includes(column);
        (onCell ? finding.said : finding.silent).push(`row ${i + 1} ${column}: ${what}`);
      }
    });
    return finding;
  });
}

/** The checks of a customer file through the command line, each named in customers/known-gaps-cli.ts when it fails today. */
const CLI_CHECKS = ['incidents', 'thirdparties', 'contracts', 'task update', 'task score and status', 'task advance', 'task full update keeps values', 'no silent drop'] as const;
type CliCheck = (typeof CLI_CHECKS)[number];

/** A typed cell as customers.test.ts types it (its wants read dates as ISO text). */
const asCell = (v: Typed) => (typeof v === 'object' ? v.date : v);

/**
 * A customer file's wants (test/binding/customers/<name>.wants.ts) read in what the recording proxy saw of the
 * relay door's requests, per check: every typed value where the file wants it, encoded as it says. A problem
 * about a column the post neither sent as wanted nor said on that cell (a validation problem, or the row's
 * message naming the column) is a silent drop, listed again under 'no silent drop'.
 */
function customerProblems(w: World, posted: Posted[]): Record<CliCheck, string[]> {
  const wants = CUSTOMER_WANTS[w.file]!;
  const out = Object.fromEntries(CLI_CHECKS.map((c) => [c, [] as string[]])) as Record<CliCheck, string[]>;
  // The wants' paths are below the API root, as the sandbox sees them.
  const root = new URL(w.sandbox.url).pathname.replace(/\/$/, '');
  const seen = (r: Recorded): Received => ({ path: r.path.startsWith(root) ? r.path.slice(root.length) : r.path, body: r.body });
  const flows: Record<'incidents' | 'thirdparties' | 'contracts', CustomerFlowWants> = { incidents: wants.incidents, thirdparties: wants.thirdparties, contracts: wants.contracts };
  for (const flow of ['incidents', 'thirdparties', 'contracts'] as const)
    if (!posted.some((p) => p.flow === flow)) out[flow].push(`no ${flow} template: the binding has no operation for ${FLOW_OPS[flow].join(', ')}`);
  const taskRows = { update: false, score: false, advance: false, comment: false };
  for (const { flow, plan: p, result, requests, links } of posted) {
    const extras = extrasOf(w, [...FLOW_OPS[flow], 'task-score-status', ...(flow === 'incidents' ? ['incident-hyperlink'] : [])]).map((x) => x.header);
    p.rows.forEach((row, i) => {
      const outcome = result.outcomes?.find((o) => o.row === i);
      const kind: CliCheck =
        flow !== 'tasks' ? flow : row.Action === 'Advance' ? 'task advance' : row.Action === 'Score and status' ? 'task score and status' : String(row.Comment).endsWith(ONLY_A_COMMENT) ? 'task full update keeps values' : 'task update';
      if (flow === 'tasks') taskRows[kind === 'task advance' ? 'advance' : kind === 'task score and status' ? 'score' : kind === 'task update' ? 'update' : 'comment'] = true;
      const want: CustomerFlowWants | { operation: string; pathLike?: string } =
        flow !== 'tasks' ? flows[flow] : kind === 'task advance' ? wants.taskAdvance : kind === 'task score and status' ? wants.taskScoreStatus : wants.taskUpdate;
      const say = (what: string) => out[kind].push(`row ${i + 1}: ${what}`);
      // A row refused at validation has no outcome: its errors say why.
      const refusals = (result.problems ?? []).filter((q) => q.row === i && q.severity === 'error').map((q) => `${q.column}: ${q.message}`);
      if (outcome?.status !== (flow === 'tasks' ? 'done' : 'created')) return say(outcome ? `${outcome.status}: ${outcome.message}` : `refused: ${refusals.join('; ') || 'no outcome'}`);
      const got = requests[i];
      if (!got) return say('no request reached the service');
      const cells = Object.fromEntries(Object.entries(row).filter(([c, v]) => v !== '' && !extras.includes(c) && c !== 'Hyperlink').map(([c, v]) => [c, asCell(v)]));
      const fields = p.custom.filter((f) => f.column in cells).map((f) => ({ column: f.column, def: f.def, cell: cells[f.column]! }));
      const problems = [...pathProblems(seen(got), want)];
      // An advance has no columns of its own: its path is what its wants say.
      if (kind !== 'task advance') {
        const flowWants = want as CustomerFlowWants;
        problems.push(...columnProblems(w, cells, seen(got), flowWants, fields.map((f) => f.column)));
        if (flowWants.customFields) problems.push(...customFieldProblems(seen(got), flowWants.customFields, fields));
      }
      if (flow === 'incidents' && i === 0) {
        const link = links[i];
        if (row.Hyperlink === undefined) problems.push('Hyperlink: the template has no Hyperlink column');
        else if (!link) problems.push(`Hyperlink: no hyperlink request reached the service (row: ${outcome.message})`);
        else problems.push(...pathProblems(seen(link), wants.incidents.hyperlink), ...columnProblems(w, { Hyperlink: asCell(row.Hyperlink) }, seen(link), wants.incidents.hyperlink));
      }
      for (const problem of problems) {
        say(problem);
        const column = Object.keys(row)
          .filter((c) => problem.startsWith(`${c}:`) || problem.startsWith(`${c} (`))
          .sort((a, b) => b.length - a.length)[0];
        const onCell = column !== undefined && (result.problems?.some((q) => q.row === i && q.column === column) || outcome.message.includes(column));
        if (column !== undefined && !onCell) out['no silent drop'].push(`${flow} row ${i + 1}: ${problem}`);
      }
    });
  }
  if (!taskRows.update) out['task update'].push('no Update row: the binding has no v2 task update');
  if (!taskRows.score) out['task score and status'].push('no Score and status row: the binding has no score-and-status operation');
  if (!taskRows.advance) out['task advance'].push('no Advance row: the binding has no advance operation');
  if (!taskRows.comment) out['task full update keeps values'].push('no comment-only Update row: the binding has no v2 task update');
  // The service's state: no write, through either door, emptied a task field that had a value.
  out['task full update keeps values'].push(...w.blanking.blanked.map((b) => `blanked: ${b}`));
  return out;
}

/**
 * What each row sent through one door, with what is the door's own (its row names, LEI code, the task it
 * advances, the GUIDs the service gave) replaced by the relay door's: two doors onto one bound environment
 * must send the same requests.
 */
function sent(posted: Posted[], same: [string, string][] = []): string[] {
  const swap = (text: string) => same.reduce((t, [from, to]) => t.split(from).join(to), text);
  return posted.flatMap((p) =>
    p.plan.rows.flatMap((_, i) => {
      const outcome = p.result.outcomes?.find((o) => o.row === i);
      return [p.requests[i], p.links[i]].map((r) => swap(`${p.flow} row ${i + 1}: ${outcome?.status ?? 'not posted'}; ${r ? `${r.method} ${r.path}?${r.query} ${JSON.stringify(r.body)}` : 'no request'}`));
    }),
  );
}

/** The API files of test/binding/customers (written by the helper "outside"), when there are any. */
const CUSTOMERS = join(__dirname, '..', 'binding', 'customers');
const customerFiles = existsSync(CUSTOMERS) ? readdirSync(CUSTOMERS).filter((f) => /\.(json|ya?ml)$/.test(f)) : [];

describe.each([...FILES.map((f) => [f, corpus(f)]), ...customerFiles.map((f) => [f, join(CUSTOMERS, f)])])('the customer file %s through the command line', (file, path) => {
  let started: World | Refused | undefined;
  /** Why a customer file's world did not start (a customer file may not, today: the checks below say so). */
  let notStarted = '';
  const through: Partial<Record<Door, Posted[]>> = {};
  beforeAll(async () => {
    try {
      started = await startWorld(file, path);
    } catch (e) {
      if (!CUSTOMER_WANTS[file]) throw e;
      notStarted = `did not start: ${(e as Error).message.split('\n').slice(0, 3).join(' / ')}`;
    }
  }, 60_000);
  afterAll(() => stopWorld(started));

  it.each<Door>(['relay', 'direct'])('binding import -> template -> openpyxl -> post (%s): every typed value where the file wants it, none dropped silently', async (door) => {
    if (!started || 'refused' in started) {
      through[door] = [];
      return;
    }
    const w = started;
    const posted = (through[door] = await throughDoor(w, door));
    // The corpus's wants (corpus/wants.ts); a customer file's own are read by the 'cli: ...' checks below.
    if (!WANTS[file]) return;
    const found = findings(w, posted);
    expect(found.flatMap((f) => f.silent.map((s) => `${f.flow} ${s}`))).toEqual([]);
    // Records are created with every value where the file wants it; a task update is done.
    expect(found.map((f) => [f.flow, f.outcomes.map(([status, message]) => `${status}: ${message}`)])).toEqual(
      found.map((f) => [f.flow, f.outcomes.map(() => expect.stringMatching(f.flow === 'tasks' ? /^done: / : /^created: /))]),
    );
    expect(found.flatMap((f) => f.said.map((s) => `${f.flow} ${s}`))).toEqual([]);
    // The values were found, not just missed the same way by the check and the product.
    expect(found.reduce((n, f) => n + f.landed, 0)).toBeGreaterThan(20);
  }, 120_000);

  it('the relay and the base URL with the binding file send the same requests: one bound environment, both doors', () => {
    const { relay, direct } = through;
    if (notStarted) return;
    if (!relay || !direct) throw new Error('a door did not run');
    // What is each door's own: its row names, LEI code and advanced task, and the GUIDs the service gave.
    const same: [string, string][] = [[`${file} direct`, `${file} relay`], [lei('direct'), lei('relay')]];
    for (const [k, p] of direct.entries()) {
      p.plan.ownTasks?.forEach((id, i) => same.push([id, relay[k]!.plan.ownTasks![i]!]));
      p.result.outcomes?.forEach((o) => {
        const twin = relay[k]!.result.outcomes?.find((r) => r.row === o.row);
        if (o.guid && twin?.guid) same.push([o.guid, twin.guid]);
      });
    }
    expect(sent(direct, same)).toEqual(sent(relay));
    // A file refused at import, or with no flow it can post, has nothing to send through either door.
    const nothing = !started || 'refused' in started || !relay.length;
    expect(sent(relay).length > 0).toBe(!nothing);
  });

  it('no write blanks a task field that had a value (the service state behind the proxy)', () => {
    // A customer file's full updates are checked (with its known gaps) under 'task full update keeps values'.
    if (!started || 'refused' in started || CUSTOMER_WANTS[file]) return;
    expect(started.blanking.blanked).toEqual([]);
  });

  // A customer file: its own wants, through the relay door (test/binding/customers/read-wants.ts).
  if (CUSTOMER_WANTS[file]) {
    let problems: Record<CliCheck, string[]> | undefined;
    const checkCli = (name: string, found: () => string[]) => checkAgainstGaps(CLI_KNOWN_GAPS, 'customers/known-gaps-cli.ts', file, `cli ${name}`, found);
    it('cli: imports, and the bound sandbox, the proxy and the relay start', () =>
      checkCli('import', () => (started && 'refused' in started ? [`refused at import: ${started.refused.split('\n')[0]}`] : notStarted ? [notStarted] : [])));
    it.each(CLI_CHECKS)("cli: %s, where the customer's wants file says", (name) =>
      checkCli(name, () => {
        if (!started || 'refused' in started) return [notStarted || 'refused at import'];
        if (!through.relay) return ['the relay door did not run through (its own test says why)'];
        problems ??= customerProblems(started, through.relay);
        return problems[name];
      }),
    );
  }
});
