import type { ColumnSpec, TableShape, WorkbookPort } from '../workbook/port';
import { loadStanding, type WritebackApi } from './api';
import { flowAvailability, type EnvironmentInfo } from './environment/availability';
import { fitFlow } from './environment/fitted-flow';
import { bindEnvironment, listsNeeded } from './environment/context';
import type { AnyFlow } from './flow';
import { resultColumnSpecs } from './rows/results';
import { rowKeySpec } from './rows/rowkey';
import { rowStateSpec } from './rows/state';
import { saveTableRecord } from './rows/tablerecord';

/** The hidden sheet that holds the dropdown lists of every template. */
export const LOOKUP_SHEET = 'GRC lists';

/** A flow whose operation this environment lacks: no template is made for it (nothing could be posted). */
export class FlowUnavailable extends Error {
  override name = 'FlowUnavailable';
}

/**
 * "New template": a sheet with an empty table whose columns are the flow's (custom fields of the
 * environment included), dropdowns filled from its standing data, and the result columns. The workbook
 * records the environment the template is for.
 */
export async function createTemplate(options: {
  api: WritebackApi;
  workbook: WorkbookPort;
  flow: AnyFlow;
  environment: EnvironmentInfo;
  signal?: AbortSignal;
  now?: Date;
}): Promise<TableShape> {
  const { api, workbook, flow } = options;
  const environment = bindEnvironment(options.environment);
  const availability = flowAvailability(flow, environment);
  if (availability.post.kind === 'unavailable') throw new FlowUnavailable(availability.post.message);
  const standing = await loadStanding(
    api,
    flow.standingDatasets,
    options.signal,
    availability.lacking,
    listsNeeded(flow, environment),
  );
  const bound = fitFlow(flow, environment, standing, availability);
  if (!(await workbook.sheetNames()).includes(LOOKUP_SHEET))
    await workbook.addSheet(LOOKUP_SHEET, { hidden: true });
  const sheet = await workbook.addSheet(flow.title, { activate: true });
  const taken = new Set((await workbook.listTables()).map((t) => t.name.toLowerCase()));
  let name = flow.tableName;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${flow.tableName}${n}`;
  const table = await workbook.createTable({
    name,
    sheet,
    anchor: 'A1',
    columns: [
      ...bound.templateColumns(LOOKUP_SHEET).map((c) => withListKey(c, environment.name)),
      ...resultColumnSpecs,
      rowKeySpec,
      rowStateSpec,
    ],
  });
  await saveTableRecord(workbook, name, {
    flow: flow.id,
    environment: environment.name,
    createdAt: (options.now ?? new Date()).toISOString(),
  });
  return table;
}

/**
 * A dropdown's list is keyed by environment and column on the lookup sheet: standing data differs between
 * environments, and a PRD template must not rewrite (or offer) the lists of an ACC one in the same file.
 */
function withListKey(spec: ColumnSpec, environment: string): ColumnSpec {
  return spec.list ? { ...spec, list: { ...spec.list, key: `${spec.name} (${environment})` } } : spec;
}
