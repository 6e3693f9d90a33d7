import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import { createCatalog, type Binding, type BoundOperation } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { type EnvironmentView } from '../../src/contracts/environments';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { AnyFlow } from '../../src/writeback/flow';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { namesByGuid } from '../support/wants-check';
import { relayViews } from '../relay/helpers';

/**
 * One customer's world for end-to-end tests: its API file imported, the bound sandbox standing in for its
 * service (bodies checked against the file's own schemas), a relay started from the binding file, a client
 * through the relay, and rows posted through a template of a write-back flow as a user would.
 */
export type Row = Record<string, Cell>;

export interface World {
  binding: Binding;
  sandbox: Sandbox;
  relay: Relay;
  client: GrcClient;
  acc: EnvironmentView;
  /** Every standing name by GUID: what a GUID in a request is compared by. */
  nameOf: Map<string, string>;
}

/** Imports the file as `binding import --accept` would; starts its bound sandbox and a relay on that binding. */
export async function startWorld(file: string): Promise<World> {
  const { binding } = await importBinding(file, { accept: true });
  const bindingFile = join(mkdtempSync(join(tmpdir(), 'corpus-')), 'binding.json');
  writeFileSync(bindingFile, JSON.stringify(binding));
  const sandbox = await startSandbox({ scale: 40, seed: 11, binding, apiFile: file });
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
  // A dropdown answer may go as its option's GUID: the option's name is what the user typed.
  const nameOf = namesByGuid(sandbox);
  return { binding, sandbox, relay, client, acc: acc!, nameOf };
}

export async function stopWorld(w: World | undefined) {
  if (!w) return;
  await w.relay.close();
  await w.sandbox.close();
}

/** Writes the rows into a new template of the flow and posts them through the relay; validation must pass. */
export async function post(w: World, flow: AnyFlow, rows: (columns: readonly string[]) => Row[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: w.client, workbook, flow, environment: w.acc });
  const typed = rows(shape.columns);
  await workbook.writeRows(
    shape.name,
    0,
    typed.map((r) => shape.columns.map((c) => r[c] ?? null)),
  );
  const plan = await preparePost({ api: w.client, workbook, table: shape.name, flow, environment: w.acc });
  const errors = plan.validation.problems.filter((p) => p.severity === 'error');
  expect(errors.map((p) => `${p.row}:${p.column}:${p.code}: ${p.message}`)).toEqual([]);
  return { typed, columns: shape.columns, summary: await plan.run() };
}

/** The catalogue field behind each template column whose value is a name from a standing list. */
const LIST_COLUMNS: Record<string, [field: string, list: string]> = {
  'Reporting organization': ['ReportingOrganization', 'organizations'],
  'Affected organizations': ['AffectedOrganizations', 'organizations'],
  'Incident types': ['IncidentTypes', 'incidenttypes'],
  Classification: ['Classification', 'incidentclassifications'],
  'Root cause category': ['RootCauseCategory', 'riskrootcausecategory'],
  Assessors: ['Assessors', 'users'],
  Responsible: ['Responsible', 'users'],
  Informed: ['Informed', 'users'],
  'Business dimensions': ['BusinessDimensions', 'businessdimensions'],
  'Framework dimensions': ['FrameworkDimensions', 'frameworkdimensions'],
  'Third party': ['ThirdPartyGuid', 'thirdparty'],
  'Responsible user': ['ResponsibleUser', 'users'],
  Reviewer: ['Reviewer', 'users'],
};

/**
 * What a user types in a list column: the record's name; but where the file wants the record's GUID and
 * has no dataset to look a name up in, its GUID (the column's header says so).
 */
export function listCell(w: Pick<World, 'sandbox' | 'binding'>, operation: string, column: string, n = 0): string {
  const [field, list] = LIST_COLUMNS[column]!;
  const r = w.sandbox.store.list<Record<string, unknown>>(list).filter((x) => x.Deleted !== true && x.Archived !== true)[n]!;
  const placed = (w.binding.endpoints[operation] as BoundOperation | undefined)?.placements.find((p) => p.field === field);
  const wantsGuid = placed && (placed.encoding.kind === 'guid' || placed.encoding.kind === 'ref');
  return wantsGuid && !w.binding.endpoints[list] ? ((r.Id ?? r.GUID) as string) : (r.Name as string);
}
