import { join } from 'node:path';
import { request } from 'undici';
import {
  escapePointer,
  getAt,
  isGuid,
  leiWithCheckDigits,
  parseDate,
  templateParams,
  type BoundOperation,
  type ExtraColumn,
} from '../../src/catalog';
import { loadApiFile } from '../../src/sandbox';
import type { Received } from '../../src/sandbox/store';
import type { Cell } from '../../src/workbook/port';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { thirdPartiesFlow } from '../../src/writeback/flows/thirdparties';
import { checkNothingDropped } from '../writeback/nothing-dropped';
import { WANTS, type CustomFieldPlace, type FlowWants } from './corpus/wants';
import { listCell, post, startWorld, stopWorld, type Row, type World } from './world';
import { valuesAt } from '../support/wants-check';

/**
 * Every customer file of the corpus (test/binding/corpus/README.md), the whole way: the file is imported as
 * `grc-sheets binding import --accept` would, a sandbox stands in for that customer (its paths, its
 * encodings, bodies checked against the file's own schemas with ajv, answers in the file's shape), the
 * relay is started from the binding file, and every flow the binding makes available posts one row with
 * EVERY template column typed. Then the request the sandbox accepted is read at the places the file wants
 * each value (corpus/wants.ts, written from the files, not from the importer): every typed value must be
 * there. Nothing typed may be dropped.
 */
type Json = Record<string, unknown>;

const FILES = Object.keys(WANTS);

const corpus = (name: string) => join(__dirname, 'corpus', name);

const op = (w: World, id: string) => w.binding.endpoints[id] as BoundOperation | undefined;
const extrasOf = (w: World, ids: string[]): ExtraColumn[] => ids.flatMap((id) => op(w, id)?.extras ?? []);

/** A typed value as the service would compare it: names for GUIDs, ISO dates without a time, lower case. */
function norm(w: World, v: unknown): string[] {
  const one = (x: unknown): string => {
    let s = typeof x === 'string' ? x : JSON.stringify(x);
    if (isGuid(s)) s = w.nameOf.get(s.toLowerCase()) ?? s;
    if (/^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z?$/.test(s)) s = s.slice(0, 10);
    return s.trim().toLowerCase();
  };
  if (Array.isArray(v)) return v.flatMap((x) => norm(w, x));
  if (typeof v === 'string' && v.includes(';')) return v.split(';').map(one);
  return v === undefined || v === null ? [] : [one(v)];
}

/**
 * The check this test is for: every non-empty typed cell of the row is in the request the sandbox accepted,
 * where the file wants it. Returns what is missing, in words, so a failure lists every dropped value.
 */
function dropped(
  w: World,
  row: Row,
  got: Received,
  wants: FlowWants,
  extras: ExtraColumn[],
  cf: CustomFieldColumn[],
  /** Columns whose value goes in another request (the hyperlink's), checked there. */
  elsewhere: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (const [column, cell] of Object.entries(row)) {
    if (
      cell === null ||
      cell === '' ||
      column === 'Task' ||
      column === 'Action' ||
      elsewhere.includes(column)
    )
      continue;
    // An enum the file writes as numbers: the typed name is looked for as the file's value of that meaning.
    const meant = wants.enums?.[column]?.[String(cell)];
    const typed = norm(w, meant ?? cell);
    const want = wants.columns[column];
    const extra = extras.find((x) => x.header === column);
    const field = cf.find((c) => c.column === column);
    if (want === 'path') {
      const guid = [...w.nameOf].find(([, n]) => n.toLowerCase() === typed[0])?.[0];
      if (!guid || !got.path.toLowerCase().includes(guid))
        out.push(`${column}: "${cell}" is not in the path ${got.path}`);
    } else if (want !== undefined) {
      const pattern = wants.datePattern;
      const found = (Array.isArray(want) ? want : [want]).flatMap((p) =>
        valuesAt(got.body, p).flatMap((v) =>
          norm(w, pattern && typeof v === 'string' ? (parseDate(v, pattern) ?? v) : v),
        ),
      );
      for (const t of typed)
        if (!found.includes(t))
          out.push(`${column}: "${t}" not at ${String(want)} (found ${JSON.stringify(found)})`);
    } else if (extra) {
      const found = extraValues(w, got, extra);
      for (const t of typed) if (!found.includes(t)) out.push(`${column} (extra): "${t}" not at ${extra.at}`);
    } else if (field && wants.customFields) {
      // Every option of a multi-select too: each must be there (a map that kept only the last is a drop).
      const found = customFieldValues(w, got.body, wants.customFields, field);
      for (const t of typed)
        if (!found.includes(t))
          out.push(`${column} (custom field): "${t}" not in ${wants.customFields.at} (found ${JSON.stringify(found)})`);
    } else if (column === 'Hyperlink' || column === 'Notice period' || column === 'Notice period unit') {
      continue; // checked on their own: a follow-up request, or a joined property
    } else out.push(`${column}: a column whose value the file has no place for`);
  }
  if (wants.joinedNotice && row['Notice period'] !== undefined) {
    const v = getAt(got.body, wants.joinedNotice);
    const expected = `${row['Notice period']} ${String(row['Notice period unit'])}`;
    if (v !== expected)
      out.push(`Notice period: "${expected}" not at ${wants.joinedNotice} (found ${JSON.stringify(v)})`);
  }
  return out;
}

/** What a request holds for one custom field, wherever the file wants its answers, as typed values compare. */
function customFieldValues(w: World, body: unknown, p: CustomFieldPlace, field: CustomFieldColumn): string[] {
  const answers = p.map
    ? [getAt(body, `${p.at}/${escapePointer(field.id)}`)]
    : valuesAt(body, `${p.at}/*`)
        .filter((e) => getAt(e, p.guid) === field.id)
        .map((e) => (field.date && p.date ? getAt(e, p.date) : getAt(e, p.value)));
  return answers.flatMap((v) => {
    // Where the file names no separator, joined options go with docs/binding.md's default "; ".
    const split = (x: unknown): unknown[] =>
      Array.isArray(x) ? x.flatMap(split) : typeof x === 'string' ? x.split(p.separator ?? '; ') : [x];
    return split(v).flatMap((x) =>
      norm(w, field.date && p.datePattern && typeof x === 'string' ? (parseDate(x, p.datePattern) ?? x) : x),
    );
  });
}

/** What a request holds where an extra column's value goes: its body pointer, query parameter or path. */
function extraValues(w: World, got: Received, extra: ExtraColumn): string[] {
  const at =
    extra.in === 'query'
      ? new URLSearchParams(got.query).getAll(extra.at)
      : extra.in === 'path'
        ? got.path.split('/')
        : valuesAt(got.body, extra.at);
  return at.flatMap((v) => norm(w, v));
}

interface CustomFieldColumn {
  column: string;
  id: string;
  date: boolean;
}

/** A value for an extra column the file requires or offers: its first enum value, else by its cell type. */
function extraValue(x: ExtraColumn): Cell {
  if (x.values?.length) return x.values[0]!;
  switch (x.cell) {
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return 7;
    case 'date':
    case 'date-time':
      return '2026-04-01';
    case 'guid':
      return null; // a GUID of the customer's own that the sandbox has no list for: left blank
    default:
      return `extra ${x.fileName}`;
  }
}

function customFieldCells(
  w: World,
  dataset: string,
  columns: readonly string[],
  only?: (d: Json) => boolean,
): { cells: Row; fields: CustomFieldColumn[] } {
  const cells: Row = {};
  const fields: CustomFieldColumn[] = [];
  for (const d of w.sandbox.store.list<Json>(dataset)) {
    const name = d.Name as string;
    const column = columns.find((c) => c === name || c.startsWith(`${name} [`));
    if (!column || (only && !only(d))) continue;
    const options = ((d.AnswerOptions as (string | { Name: string })[] | undefined) ?? []).map((o) =>
      typeof o === 'string' ? o : o.Name,
    );
    // A multi-select with two options chosen: every one of them must arrive.
    const value: Cell =
      d.Type === 'Date'
        ? '2026-02-14'
        : d.Type === 'Number'
          ? 42
          : d.Type === 'Checkbox'
            ? true
            : d.Type === 'MultiSelect' && options.length > 1
              ? `${options[0]}; ${options[1]}`
              : (options[0] ?? `cf ${name}`);
    cells[column] = value;
    fields.push({ column, id: d.Id as string, date: d.Type === 'Date' });
  }
  return { cells, fields };
}

const available = (w: World, id: string) => op(w, id) !== undefined;
describe.each(FILES)('the customer file %s, end to end', (file) => {
  const wants = WANTS[file]!;
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(corpus(file));
  });
  afterAll(() => stopWorld(w));

  it('posts an incident with every column typed: each value arrives where the file wants it', async () => {
    if (!available(w!, 'incident-create')) throw new Error(`${file}: incident-create is not bound`);
    const cell = (column: string, n = 0) => listCell(w!, 'incident-create', column, n);
    const org = cell('Reporting organization');
    let custom: CustomFieldColumn[] = [];
    let linkable = true;
    const name = `corpus ${file} incident`;
    const { typed, summary } = await post(w!, incidentsFlow, (columns) => {
      // A type whose required custom fields the template has columns for: the service adds a hyperlink only
      // to an incident whose required fields are filled (spec, Incident rule 8).
      const fields = w!.sandbox.store.list<Json>('incidenttypecustomfields');
      const types = w!.sandbox.store.list<Json>('incidenttypes').filter((t) => t.Archived !== true);
      const fillable = types.find((t) =>
        fields
          .filter((d) => d.IncidentTypeId === t.Id && d.Required === true)
          .every((d) => columns.some((col) => col.startsWith(`${d.Name as string} [`))),
      );
      linkable = fillable !== undefined;
      const type = fillable ?? types[0]!;
      const c = customFieldCells(
        w!,
        'incidenttypecustomfields',
        columns,
        (d) => d.IncidentTypeId === type.Id,
      );
      custom = c.fields;
      const row: Row = {
        Name: name,
        Description: 'Water in the server room',
        'Reporting organization': org,
        'Affected organizations': cell('Affected organizations', 1),
        'Incident types': cell('Incident types', types.indexOf(type)),
        Classification: cell('Classification'),
        'Root cause category': cell('Root cause category'),
        'Root cause': 'A burst pipe',
        'Date detected': '2026-03-02',
        'Date occurred': '2026-03-01',
        Assessors: cell('Assessors'),
        Responsible: cell('Responsible', 1),
        Informed: cell('Informed'),
        'Business dimensions': cell('Business dimensions'),
        'Framework dimensions': cell('Framework dimensions'),
        Hyperlink: 'https://intranet.example.com/incidents/flood',
        ...c.cells,
      };
      for (const x of extrasOf(w!, ['incident-create', 'incident-hyperlink'])) row[x.header] = extraValue(x);
      // Only the columns the template has: a value for a column it lacks could not be typed.
      return [Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k)))];
    });
    expect(summary.outcomes.map((o) => [o.status, o.status === 'created' ? '' : o.message])).toEqual([
      ['created', ''],
    ]);
    const id = summary.outcomes[0]!.guid;
    const got = w!.sandbox.store.received.find((r) => r.endpoint === 'incident-create' && r.id === id)!;
    expect(got).toBeDefined();
    const linkExtras = extrasOf(w!, ['incident-hyperlink']);
    const elsewhere = ['Hyperlink', ...linkExtras.map((x) => x.header)];
    expect(
      dropped(w!, typed[0]!, got, wants.incidents!, extrasOf(w!, ['incident-create']), custom, elsewhere),
    ).toEqual([]);
    if (typed[0]!.Hyperlink && !linkable) {
      // Every type has a required custom field and the file has no custom fields to fill them with: the
      // service refuses the hyperlink, and the row says so (it is not silently dropped).
      expect(summary.outcomes[0]!.message).toMatch(
        /^Created, but the service refused the hyperlink .*required custom field/,
      );
    } else if (typed[0]!.Hyperlink) {
      const link = w!.sandbox.store.received.find(
        (r) => r.endpoint === 'incident-hyperlink' && r.path.includes(id),
      );
      expect([link && getAt(link.body, wants.incidents!.hyperlink!), summary.outcomes[0]!.message]).toEqual([
        typed[0]!.Hyperlink,
        'Created; hyperlink added',
      ]);
      for (const x of linkExtras)
        if (typed[0]![x.header] != null)
          expect(link && extraValues(w!, link, x)).toContain(norm(w!, typed[0]![x.header])[0]);
    }
    expect(w!.sandbox.store.find('incidents', id)).toMatchObject({ Name: name });
  });

  it('posts a third party with every column typed', async () => {
    if (!available(w!, 'thirdparty-create')) throw new Error(`${file}: thirdparty-create is not bound`);
    let custom: CustomFieldColumn[] = [];
    const name = `corpus ${file} party`;
    const { typed, summary } = await post(w!, thirdPartiesFlow, (columns) => {
      const c = customFieldCells(w!, 'thirdpartycustomfields', columns);
      custom = c.fields;
      const row: Row = {
        Name: name,
        'LEI code': leiWithCheckDigits('5493001KJTIIGC8Y1R'),
        'Framework dimensions': listCell(w!, 'thirdparty-create', 'Framework dimensions'),
        ...c.cells,
      };
      for (const x of extrasOf(w!, ['thirdparty-create'])) row[x.header] = extraValue(x);
      return [Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k)))];
    });
    expect(summary.outcomes.map((o) => [o.status, o.status === 'created' ? '' : o.message])).toEqual([
      ['created', ''],
    ]);
    const got = w!.sandbox.store.received.find(
      (r) => r.endpoint === 'thirdparty-create' && r.id === summary.outcomes[0]!.guid,
    )!;
    expect(
      dropped(w!, typed[0]!, got, wants.thirdparties!, extrasOf(w!, ['thirdparty-create']), custom),
    ).toEqual([]);
  });

  it('posts a contract with every column typed', async () => {
    if (!available(w!, 'contract-create')) throw new Error(`${file}: contract-create is not bound`);
    const party = listCell(w!, 'contract-create', 'Third party');
    let custom: CustomFieldColumn[] = [];
    const { typed, summary } = await post(w!, contractsFlow, (columns) => {
      const c = customFieldCells(w!, 'thirdpartycontractcustomfields', columns);
      custom = c.fields;
      const row: Row = {
        'Third party': party,
        Name: `corpus ${file} contract`,
        Services: 'Cleaning',
        'Start date': '2026-01-01',
        'End date': '2027-12-31',
        'Notice period': 3,
        'Notice period unit': 'Months',
        ...c.cells,
      };
      for (const x of extrasOf(w!, ['contract-create'])) row[x.header] = extraValue(x);
      return [Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k)))];
    });
    expect(summary.outcomes.map((o) => [o.status, o.status === 'created' ? '' : o.message])).toEqual([
      ['created', ''],
    ]);
    const got = w!.sandbox.store.received.find(
      (r) => r.endpoint === 'contract-create' && r.id === summary.outcomes[0]!.guid,
    )!;
    expect(dropped(w!, typed[0]!, got, wants.contracts!, extrasOf(w!, ['contract-create']), custom)).toEqual(
      [],
    );
    const notice = wants.contracts!.columns['Notice period'];
    if (typeof notice === 'string') expect(getAt(got.body, notice)).toBe(3);
  });

  it('updates a task with every column typed, and advances another where the file can', async () => {
    // The flow's Update is the v2 update, which does not submit the task. A file with only a v1 (partial)
    // update (northwind's PATCH) gets no Update: its rows would be refused on the Action cell
    // (docs/writeback.md), so only the advance is posted there.
    const update = available(w!, 'task-update-v2') ? 'task-update-v2' : undefined;
    const tasks = w!.sandbox.store.list<Json>('tasks');
    const task = tasks.find((t) => t.Status === 'To do')!;
    // Advancing is the responsible user's or the reviewer's: the demo key's owner is the first user.
    const owner = w!.sandbox.store.list<Json>('users')[0]!.Name;
    const next = tasks.find((t) => t.Status === 'To do' && t !== task && t.ResponsibleUser === owner);
    const advance = available(w!, 'task-advance') && next !== undefined;
    if (!update && !advance) throw new Error(`${file}: neither a task update nor an advance is bound`);
    const { typed, summary } = await post(w!, tasksFlow, (columns) => {
      const row: Row = {
        Task: task.Id as string,
        Action: 'Update',
        Description: 'Checked on site',
        Reviewer: update ? listCell(w!, update, 'Reviewer') : '',
        'Action date': '2026-06-30',
        Score: 4,
        Comment: `corpus ${file}`,
      };
      // Each row types the extra columns of its own action's operation: another action's is refused on its cell.
      const extras = (ids: string[]): Row =>
        Object.fromEntries(extrasOf(w!, ids).map((x) => [x.header, extraValue(x)]));
      const rows = update
        ? [Object.fromEntries(Object.entries({ ...row, ...extras([update]) }).filter(([k]) => columns.includes(k)))]
        : [];
      const advanceRow = { Task: next?.Id as string, Action: 'Advance', ...extras(['task-advance']) };
      return advance
        ? [...rows, Object.fromEntries(Object.entries(advanceRow).filter(([k]) => columns.includes(k)))]
        : rows;
    });
    expect(summary.outcomes.map((o) => [o.status, o.message])).toEqual([
      ...(update ? [['done', 'Updated']] : []),
      ...(advance ? [['done', expect.any(String)]] : []),
    ]);
    if (update) {
      const got = w!.sandbox.store.received.find((r) => r.endpoint === update && r.id === task.Id)!;
      expect(dropped(w!, typed[0]!, got, wants.tasks!, extrasOf(w!, [update]), [])).toEqual([]);
      expect(w!.sandbox.store.find('tasks', task.Id as string)).toMatchObject({ Comment: `corpus ${file}` });
    }
    if (advance) {
      const moved = w!.sandbox.store.received.find((r) => r.endpoint === 'task-advance' && r.id === next.Id);
      expect(moved?.path).toContain(next.Id as string);
      expect(w!.sandbox.store.find('tasks', next.Id as string)).toMatchObject({ Status: 'Ready for review' });
    }
  });

  it("passes the write-back's nothing-dropped check: every cell where the binding places it", async () => {
    const report = await checkNothingDropped({ environment: w!.acc, api: w!.client });
    expect(report.failures).toEqual([]);
    expect(report.flows.filter((f) => !f.available).map((f) => `${f.flow}: ${f.unavailable}`)).toEqual([]);
  });

  it('binds no deprecated operation: every deprecated one in the corpus has a current twin', () => {
    const deprecated = Object.entries(w!.binding.endpoints)
      .filter(([, e]) => e.file.deprecated)
      .map(([id, e]) => `${id} -> ${e.method} ${e.path}`);
    expect(deprecated).toEqual([]);
  });

  it("serves every bound dataset as the file documents its records (checked with the file's own schema)", async () => {
    const apiFile = await loadApiFile(corpus(file));
    const problems: string[] = [];
    let checked = 0;
    for (const [id, e] of Object.entries(w!.binding.endpoints)) {
      if (e.kind !== 'dataset' || templateParams(e.path).length) continue;
      const fileOp = apiFile.find('GET', e.path);
      if (!fileOp?.record) continue;
      const res = await request(`${w!.sandbox.url}${e.path}`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${w!.sandbox.demoKey!.identifier}:${w!.sandbox.demoKey!.password}`).toString('base64')}`,
        },
      });
      const records = getAt(await res.body.json(), e.records) as unknown[];
      const check = apiFile.checkAnswer(fileOp.record);
      // One line per dataset: its first record the file's schema refuses, with why.
      const sample = records.slice(0, 25);
      checked += sample.length;
      const bad = sample.find((r) => !check(r));
      if (bad) problems.push(`${id} ${e.path}: ${JSON.stringify(check.errors?.slice(0, 2))}`);
      // What the client makes of them: catalogue records with their GUIDs, which the flows look names up by.
      const { records: read } = await w!.client.download(id);
      if (records.length && !read.every((x) => typeof (x.Id ?? x.GUID ?? x.Identifier) === 'string'))
        problems.push(`${id}: records without an Id after decoding`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
