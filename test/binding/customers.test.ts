import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCatalog, leiWithCheckDigits, type Binding } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { type EnvironmentView } from '../../src/contracts/environments';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { Received } from '../../src/sandbox/store';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { AnyFlow } from '../../src/writeback/flow';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { thirdPartiesFlow } from '../../src/writeback/flows/thirdparties';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { KNOWN_GAPS } from './customers/known-gaps';
import {
  asWant,
  checkAgainstGaps,
  columnProblems,
  CUSTOMER_WANTS as FILES,
  customFieldCells,
  customFieldProblems,
  norm,
  pathProblems,
  type TypedField,
} from './customers/read-wants';
import { valuesAt } from '../support/wants-check';
import { relayViews } from '../relay/helpers';

/**
 * The customer files of test/binding/customers/ (written from the generators' conventions by someone who had
 * not read src/binding, each with a wants file written before its first import), the whole way as a customer
 * goes: `grc-sheets binding import --accept` (the CLI, in a child process) -> a sandbox standing in for that
 * customer's service (its paths and encodings, bodies checked against the file's own schemas) + the relay
 * started from the binding file -> every flow posts rows with every template column typed through the relay ->
 * the request the sandbox accepted is read where the WANTS file says each value goes, encoded as it says
 * (integer or string enums by meaning, date formats, form bodies, custom fields as map or entries, multi-select
 * as array, repeated entries or joined text, select answers by name or GUID).
 *
 * Every check computes the list of what differs from the wants; checks the product does not pass yet are named
 * in customers/known-gaps.ts with the reason, and must still fail there (so the table stays true).
 */
type Json = Record<string, unknown>;
type Row = Record<string, Cell>;

/** Runs one check against customers/known-gaps.ts. */
const check = (file: string, name: string, problems: () => Promise<string[]> | string[]) =>
  checkAgainstGaps(KNOWN_GAPS, 'customers/known-gaps.ts', file, name, problems);


/** DirectData datasets the spec documents by path: an audit team's reports must not go when the admin binds. */
const DOCUMENTED = [
  'risk',
  'riskrootcausecategory',
  'thirdpartycustomfieldvalues',
  'thirdpartycontractcustomfieldvalues',
  'controlcustomfields',
  'audit',
  'auditfinding',
  'auditseverity',
] as const;

const ROOT = join(__dirname, '..', '..');
const customer = (name: string) => join(__dirname, 'customers', name);
const run = promisify(execFile);

interface World {
  binding: Binding;
  sandbox: Sandbox;
  relay: Relay;
  client: GrcClient;
  acc: EnvironmentView;
  /** Every standing name by GUID (lower case): what a GUID in a request is compared by. */
  nameOf: Map<string, string>;
}

/** Imports the file with the CLI, as an admin does; the binding file it wrote, or why there is none. */
async function importWithCli(file: string): Promise<{ bindingFile?: string; report: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'customers-')), 'binding.json');
  const args = ['bin/grc-sheets.js', 'binding', 'import', customer(file), '--accept', '--out', out];
  let report: string;
  try {
    const r = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 24 });
    report = r.stdout + r.stderr;
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    report = `exit ${x.code}: ${x.stderr ?? ''}${x.stdout ?? ''}`;
  }
  return { bindingFile: existsSync(out) ? out : undefined, report };
}

async function startWorld(file: string, bindingFile: string): Promise<World> {
  const binding = JSON.parse(readFileSync(bindingFile, 'utf8')) as Binding;
  const sandbox = await startSandbox({ scale: 40, seed: 11, binding, apiFile: customer(file) });
  try {
    const relay = await startRelay({
      listen: { host: '127.0.0.1', port: 0 },
      environments: { acc: { baseUrl: sandbox.url, binding: bindingFile } },
      logLevel: 'silent',
    });
    const [acc] = await relayViews(relay.url);
    const client = createClient({
      baseUrl: `${relay.url}/api/acc`,
      credentials: sandbox.demoKey!,
      catalog: createCatalog(acc!.binding ?? undefined),
    });
    const nameOf = new Map<string, string>();
    for (const list of [
      'organizations',
      'users',
      'incidenttypes',
      'incidentclassifications',
      'riskrootcausecategory',
      'businessdimensions',
      'frameworkdimensions',
      'thirdparty',
    ])
      for (const r of sandbox.store.list<Json>(list)) {
        const id = (r.Id ?? r.GUID) as string;
        if (typeof r.Name === 'string') nameOf.set(id.toLowerCase(), r.Name);
      }
    return { binding, sandbox, relay, client, acc: acc!, nameOf };
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Posting rows through the relay, as the taskpane and the CLI do

async function post(w: World, flow: AnyFlow, rows: (columns: readonly string[]) => Row[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: w.client, workbook, flow, environment: w.acc });
  const all = rows(shape.columns);
  // A column the user would type but the template lacks: the value could not be typed at all.
  const lacking = [...new Set(all.flatMap((r) => Object.keys(r)))].filter((k) => !shape.columns.includes(k));
  const typed = all.map((r) =>
    Object.fromEntries(Object.entries(r).filter(([k]) => shape.columns.includes(k))),
  );
  await workbook.writeRows(
    shape.name,
    0,
    typed.map((r) => shape.columns.map((c) => r[c] ?? null)),
  );
  const plan = await preparePost({ api: w.client, workbook, table: shape.name, flow, environment: w.acc });
  const refused = plan.validation.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `row ${p.row} refused on ${p.column}: ${p.code}: ${p.message}`);
  for (const k of lacking)
    refused.push(`the template has no column ${k} (its columns: ${shape.columns.join(', ')})`);
  const summary = refused.length ? undefined : await plan.run();
  return { typed, columns: shape.columns, refused, summary };
}

const live = <T extends Json>(w: World, list: string) =>
  w.sandbox.store.list<T>(list).filter((x) => x.Deleted !== true && x.Archived !== true);
const nameIn = (w: World, list: string, n = 0) => live(w, list)[n]!.Name as string;

/** The request the sandbox accepted for an operation about a record. */
const receivedFor = (w: World, endpoint: string, id: string | undefined) =>
  w.sandbox.store.received.find(
    (r) => r.endpoint === endpoint && (r.id === id || (id !== undefined && r.path.includes(id))),
  );

/**
 * The create the sandbox accepted for a row, and a problem when the GUID the row was given back is not the
 * record's (a follow-up request, such as the incident's hyperlink, would then address another record).
 */
function createdFor(
  w: World,
  endpoint: string,
  guid: string | undefined,
): { got?: Received; problems: string[] } {
  const exact = receivedFor(w, endpoint, guid);
  if (exact) return { got: exact, problems: [] };
  const got = w.sandbox.store.received.filter((r) => r.endpoint === endpoint).at(-1);
  if (!got) return { problems: [`no ${endpoint} request reached the sandbox`] };
  return {
    got,
    problems: [
      `the row was given the GUID ${guid}, but the record the service made is ${got.id ?? '(none)'}`,
    ],
  };
}


/** The binding's operation for a catalogue id, as "METHOD /path" the way the file spells it. */
function boundAs(w: World, id: string): string | undefined {
  const e = w.binding.endpoints[id] as { method: string; file?: { path?: string } } | undefined;
  return e && `${e.method} ${e.file?.path ?? ''}`;
}

/** The same operation: the binding may spell the path with the server's base path in front. */
const sameOperation = (bound: string | undefined, wanted: string) => {
  if (!bound) return false;
  const [bm, bp] = bound.split(' ');
  const [wm, wp] = wanted.split(' ');
  return bm === wm && (bp === wp || bp!.endsWith(wp!));
};

describe.each(Object.keys(FILES))(
  'the customer file %s, through the CLI, the relay and the bound sandbox',
  (file) => {
    const wants = FILES[file]!;
    let w: World | undefined;
    let notStarted = '';
    beforeAll(async () => {
      const { bindingFile, report } = await importWithCli(file);
      if (!bindingFile)
        notStarted = `grc-sheets binding import wrote no binding: ${report.split('\n').slice(0, 3).join(' / ')}`;
      else
        try {
          w = await startWorld(file, bindingFile);
        } catch (e) {
          notStarted = `the bound sandbox or the relay did not start: ${(e as Error).message.split('\n')[0]}`;
        }
    }, 60_000);
    afterAll(async () => {
      await w?.relay.close();
      await w?.sandbox.close();
    });
    const world = () => {
      if (!w) throw new Error(notStarted);
      return w;
    };

    it('imports, and the bound sandbox and relay start', () =>
      check(file, 'import', () => (w ? [] : [notStarted])));

    it('binds each flow and list to the operation the file means, and no look-alike', () =>
      check(file, 'bindings', () => {
        const x = world();
        const expected: Record<string, string> = {
          'incident-create': wants.incidents.operation,
          'incident-hyperlink': wants.incidents.hyperlink.operation,
          'thirdparty-create': wants.thirdparties.operation,
          'contract-create': wants.contracts.operation,
          'task-update-v2': wants.taskUpdate.operation,
          'task-score-status': wants.taskScoreStatus.operation,
          'task-advance': wants.taskAdvance.operation,
          ...wants.bound,
        };
        const out: string[] = [];
        for (const [id, op] of Object.entries(expected)) {
          const got = boundAs(x, id);
          if (!sameOperation(got, op)) out.push(`${id}: wants ${op}, bound ${got ?? 'to nothing'}`);
        }
        for (const [id, e] of Object.entries(x.binding.endpoints)) {
          const got = boundAs(x, id)!;
          if (wants.neverBound.some((n) => sameOperation(got, n)))
            out.push(`${id}: bound to the look-alike ${got}`);
          // Issue 24: shape alone makes a candidate for the admin, never a binding.
          if (e.kind === 'operation' && (e as { how?: string }).how === 'shape')
            out.push(`${id}: bound to ${got} by its shape alone`);
        }
        return out;
      }));

    it('keeps the documented DirectData datasets available, listed in the file or not (issue 24, point 6)', () =>
      check(file, 'documented datasets', async () => {
        const x = world();
        const out: string[] = [];
        for (const id of DOCUMENTED) {
          try {
            await x.client.download(id);
          } catch (e) {
            out.push(`${id}: ${(e as Error).message.split('\n')[0]}`);
          }
        }
        return out;
      }));

    it('posts an incident with every column typed, and its hyperlink', () =>
      check(file, 'incidents', async () => {
        const x = world();
        let fields: TypedField[] = [];
        const types = live(x, 'incidenttypes').slice(0, 2);
        const { typed, refused, summary } = await post(x, incidentsFlow, (columns) => {
          // Both standard types: the custom fields of both (a number, a dropdown, a checkbox, a date, a multi-select).
          fields = customFieldCells(x, 'incidenttypecustomfields', columns, (d) =>
            types.some((t) => t.Id === d.IncidentTypeId),
          );
          const roots = live(x, 'riskrootcausecategory').filter((r) => r.ParentGUID);
          return [
            {
              Name: `customer ${file} incident`,
              Description: 'Water in the server room',
              'Reporting organization': nameIn(x, 'organizations'),
              'Affected organizations': `${nameIn(x, 'organizations', 1)};${nameIn(x, 'organizations', 2)}`,
              'Incident types': types.map((t) => t.Name as string).join(';'),
              Classification: nameIn(x, 'incidentclassifications', 2),
              'Root cause category': roots[0]!.Name as string,
              'Root cause': 'A burst pipe',
              'Date detected': '2026-03-02',
              'Date occurred': '2026-03-01',
              Assessors: nameIn(x, 'users'),
              Responsible: nameIn(x, 'users', 1),
              Informed: nameIn(x, 'users', 2),
              'Business dimensions': nameIn(x, 'businessdimensions'),
              'Framework dimensions': nameIn(x, 'frameworkdimensions'),
              Hyperlink: 'https://intranet.example.com/incidents/flood',
              ...Object.fromEntries(fields.map((f) => [f.column, f.cell])),
            },
          ];
        });
        if (refused.length) return refused;
        const outcome = summary!.outcomes[0]!;
        if (outcome.status !== 'created') return [`not created: ${outcome.status}: ${outcome.message}`];
        const { got, problems: given } = createdFor(x, 'incident-create', outcome.guid);
        if (!got) return given;
        const row = typed[0]!;
        const out = [
          ...given,
          ...pathProblems(got, wants.incidents),
          ...columnProblems(x, row, got, wants.incidents, ['Hyperlink', ...fields.map((f) => f.column)]),
          ...customFieldProblems(
            got,
            wants.incidents.customFields!,
            fields.filter((f) => f.column in row),
          ),
        ];
        if (!('Hyperlink' in row)) out.push('Hyperlink: the template has no Hyperlink column');
        else {
          const link = receivedFor(x, 'incident-hyperlink', outcome.guid);
          if (!link)
            out.push(`Hyperlink: no hyperlink request reached the sandbox (row: ${outcome.message})`);
          else
            out.push(
              ...pathProblems(link, wants.incidents.hyperlink),
              ...columnProblems(x, { Hyperlink: row.Hyperlink! }, link, wants.incidents.hyperlink),
            );
        }
        return out;
      }));

    it('posts a third party with every column typed (a multi-select of two options among its custom fields)', () =>
      check(file, 'thirdparties', async () => {
        const x = world();
        let fields: TypedField[] = [];
        const { typed, refused, summary } = await post(x, thirdPartiesFlow, (columns) => {
          fields = customFieldCells(x, 'thirdpartycustomfields', columns);
          return [
            {
              Name: `customer ${file} party`,
              'LEI code': leiWithCheckDigits('5493001KJTIIGC8Y1R'),
              'Framework dimensions': nameIn(x, 'frameworkdimensions'),
              ...Object.fromEntries(fields.map((f) => [f.column, f.cell])),
            },
          ];
        });
        if (refused.length) return refused;
        const outcome = summary!.outcomes[0]!;
        if (outcome.status !== 'created') return [`not created: ${outcome.status}: ${outcome.message}`];
        const { got, problems: given } = createdFor(x, 'thirdparty-create', outcome.guid);
        if (!got) return given;
        return [
          ...given,
          ...pathProblems(got, wants.thirdparties),
          ...columnProblems(
            x,
            typed[0]!,
            got,
            wants.thirdparties,
            fields.map((f) => f.column),
          ),
          ...customFieldProblems(got, wants.thirdparties.customFields!, fields),
        ];
      }));

    it('posts a contract with every column typed (notice period and unit, custom fields)', () =>
      check(file, 'contracts', async () => {
        const x = world();
        let fields: TypedField[] = [];
        const { typed, refused, summary } = await post(x, contractsFlow, (columns) => {
          fields = customFieldCells(x, 'thirdpartycontractcustomfields', columns);
          return [
            {
              'Third party': nameIn(x, 'thirdparty'),
              Name: `customer ${file} contract`,
              Services: 'Cleaning;Catering',
              'Start date': '2026-01-01',
              'End date': '2027-12-31',
              'Notice period': 3,
              'Notice period unit': 'Months',
              ...Object.fromEntries(fields.map((f) => [f.column, f.cell])),
            },
          ];
        });
        if (refused.length) return refused;
        const outcome = summary!.outcomes[0]!;
        if (outcome.status !== 'created') return [`not created: ${outcome.status}: ${outcome.message}`];
        const { got, problems: given } = createdFor(x, 'contract-create', outcome.guid);
        if (!got) return given;
        return [
          ...given,
          ...pathProblems(got, wants.contracts),
          ...columnProblems(
            x,
            typed[0]!,
            got,
            wants.contracts,
            fields.map((f) => f.column),
          ),
          ...customFieldProblems(got, wants.contracts.customFields!, fields),
        ];
      }));

    describe('task rows', () => {
      /** Four To-do tasks: one updated with every column, one scored, one advanced, one with only a comment. */
      let picked: { update: Json; score: Json; advance: Json; comment: Json } | undefined;
      /** Each row posted on its own, so that one refused action does not hide what the others send. */
      const posted: (Awaited<ReturnType<typeof post>> | string)[] = [];
      beforeAll(async () => {
        if (!w) return;
        const tasks = live(w, 'tasks').filter((t) => t.Status === 'To do');
        // Advancing is the responsible user's or the reviewer's: the demo key's owner is the first user.
        const owner = w.sandbox.store.list<Json>('users')[0]!.Name;
        const advance = tasks.find((t) => t.ResponsibleUser === owner)!;
        const rest = tasks.filter((t) => t !== advance);
        const full = (t: Json) =>
          typeof t.Description === 'string' && (t.NotificationPeriods as unknown[]).length > 0;
        const comment = rest.find(full)!;
        const [update, score] = rest.filter((t) => t !== comment);
        // What the sandbox held before: the comment-only row must not blank it.
        picked = { update: update!, score: score!, advance, comment: structuredClone(comment) };
        const rows: Row[] = [
          {
            Task: update!.Id as string,
            Action: 'Update',
            Name: 'Check the fire doors',
            Description: 'Checked on site',
            'Responsible user': nameIn(w, 'users', 1),
            Reviewer: nameIn(w, 'users', 2),
            'Action date': '2026-06-30',
            Score: 4,
            Comment: `customer ${file}`,
            'Notification periods': 'NP-1W;NP-1M',
          },
          {
            Task: score!.Id as string,
            Action: 'Score and status',
            Score: 3,
            Comment: 'Scored',
            Status: 'Ready for review',
          },
          { Task: advance.Id as string, Action: 'Advance' },
          { Task: comment.Id as string, Action: 'Update', Comment: 'Only a comment' },
        ];
        for (const row of rows)
          try {
            posted.push(await post(w, tasksFlow, () => [row]));
          } catch (e) {
            posted.push(`crashed: ${(e as Error).message.split('\n')[0]}`);
          }
      }, 60_000);

      const outcomeOf = (n: number): string[] => {
        if (!w) return [notStarted];
        const p = posted[n]!;
        if (typeof p === 'string') return [p];
        if (p.refused.length) return p.refused;
        const o = p.summary!.outcomes[0]!;
        return o.status === 'done' ? [] : [`${o.status}: ${o.message}`];
      };
      const typedRow = (n: number) => (posted[n] as Awaited<ReturnType<typeof post>>).typed[0]!;

      it('an Update row sends the v2 full update with every typed value where the file wants it', () =>
        check(file, 'task update', () => {
          const bad = outcomeOf(0);
          if (bad.length) return bad;
          const got = receivedFor(w!, 'task-update-v2', picked!.update.Id as string);
          if (!got) return ['no v2 update reached the sandbox'];
          return [
            ...pathProblems(got, wants.taskUpdate),
            ...columnProblems(w!, typedRow(0), got, wants.taskUpdate),
          ];
        }));

      it('a Score and status row sends score, comment and the status as the file encodes it', () =>
        check(file, 'task score and status', () => {
          const bad = outcomeOf(1);
          if (bad.length) return bad;
          const got = receivedFor(w!, 'task-score-status', picked!.score.Id as string);
          if (!got) return ['no score-and-status request reached the sandbox'];
          return [
            ...pathProblems(got, wants.taskScoreStatus),
            ...columnProblems(w!, typedRow(1), got, wants.taskScoreStatus),
          ];
        }));

      it('an Advance row advances the task at the operation the file has for it', () =>
        check(file, 'task advance', () => {
          const bad = outcomeOf(2);
          if (bad.length) return bad;
          const got = receivedFor(w!, 'task-advance', picked!.advance.Id as string);
          return got ? pathProblems(got, wants.taskAdvance) : ['no advance request reached the sandbox'];
        }));

      it("an Update row with only Comment typed keeps the task's other values (no blanking full update)", () =>
        check(file, 'task full update keeps values', () => {
          const bad = outcomeOf(3);
          if (bad.length) return bad;
          const before = picked!.comment;
          const got = receivedFor(w!, 'task-update-v2', before.Id as string);
          if (!got) return ['no v2 update reached the sandbox'];
          const out: string[] = [];
          const kept: [string, unknown][] = [
            ['Name', before.Name],
            ['Description', before.Description],
            ['Responsible user', before.ResponsibleUser],
            ['Notification periods', (before.NotificationPeriods as string[]).join(';')],
          ];
          for (const [column, value] of kept) {
            const want = asWant(wants.taskUpdate.columns[column]!);
            const at = (Array.isArray(want.at) ? want.at : [want.at]).flatMap((p) => valuesAt(got.body, p));
            const have = at.flatMap((v) => norm(w!, v));
            for (const t of norm(w!, value))
              if (!have.includes(t))
                out.push(`${column}: the task's "${t}" was not sent back (sent ${JSON.stringify(at)})`);
          }
          return out;
        }));
    });
  },
);
