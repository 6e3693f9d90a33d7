/**
 * The taskpane door for customer API files (issue 24, "Through the doors people use"): per file, the file is
 * imported as `grc-sheets binding import --accept` would, a sandbox shaped by it (bodies checked against
 * the file's own schemas) stands behind a relay given the binding, and the taskpane in preview mode posts,
 * per flow, the sample rows (every template column typed where the environment takes a value: the rows the
 * flow's example request is made from) pasted into the grid, validated and posted. Then every typed value
 * must be in the request the sandbox accepted where the file's wants say, and the request must be the
 * example the flow's notice showed. Used by door-*.test.ts, a few files each, to keep each file's run short.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { importBinding } from '../../src/binding';
import { formatWire, type Binding, type FormField } from '../../src/catalog';
import { environmentPath } from '../../src/contracts/environments';
import { DEFAULT_SEED, sampleStanding } from '../../src/sandbox/data/sample';
import type { Cell } from '../../src/workbook/port';
import { bindEnvironment, flowById, type EnvironmentInfo, type FlowId } from '../../src/writeback';
import { flowExamples, type ExampleRequest } from '../../src/writeback/environment/example';
import { WANTS } from '../binding/corpus/wants';
import { customFieldColumns, dropped, extrasOf, namesByGuid, valuesAt, type Row } from '../support/wants-check';
import type { Recorded } from '../support/recording-proxy';
import { connect, launchBrowser, openPreview, pasteRowsByName, screenshot, startStack, type Stack, type TestBrowser } from './harness';

const corpus = (name: string) => join(__dirname, '..', 'binding', 'corpus', name);

const CUSTOM_FIELDS: Partial<Record<FlowId, string>> = {
  incidents: 'incidenttypecustomfields',
  thirdparties: 'thirdpartycustomfields',
  contracts: 'thirdpartycontractcustomfields',
};

/** A cell as a user types it into the grid. */
const typed = (c: Cell) => (c === null ? '' : c === true ? 'TRUE' : c === false ? 'FALSE' : String(c));

/** The flow's sample rows, one per call it makes (a task's actions), Advance last: it leaves the task in review. */
function sampleRows(examples: readonly ExampleRequest[]): { row: Row; calls: ExampleRequest[] }[] {
  const rows = new Map<string, { row: Row; calls: ExampleRequest[] }>();
  for (const x of examples) {
    const key = JSON.stringify(x.row);
    rows.set(key, { row: x.row, calls: [...(rows.get(key)?.calls ?? []), x] });
  }
  const all = [...rows.values()];
  const last = (r: { calls: ExampleRequest[] }) => r.calls[0]!.operation === 'task-advance';
  return [...all.filter((r) => !last(r)), ...all.filter(last)];
}

/** A flow's sample rows entered through the taskpane and posted, and what the recording proxy saw of it. */
export interface TaskpanePost {
  rows: { row: Row; calls: ExampleRequest[] }[];
  /** The template columns typed (every column of some sample row). */
  columns: string[];
  /** The writes the proxy saw, in order, and the example call each stands for. */
  writes: Recorded[];
  sent: { row: Row; x: ExampleRequest }[];
  /** Each write as seen and as the notice showed it: equal when the notice told the truth. */
  seen: unknown[][];
  shown: unknown[][];
}

/**
 * One flow through the taskpane: the notice's example requests read (screenshots at 1280 and 350 px when
 * asked), a new template, the sample rows pasted in the grid, validated (all ready) and posted (all done),
 * and what the recording proxy saw of the writes, beside what the notice showed.
 */
export async function postThroughTaskpane(page: Page, stack: Stack, flowId: FlowId, examples: readonly ExampleRequest[], shot: boolean): Promise<TaskpanePost> {
  const flow = flowById(flowId);
  const rows = sampleRows(examples);
  expect(rows.length).toBeGreaterThan(0);

  await page.getByTestId('taskpane').getByRole('tab', { name: 'Write-back', exact: true }).click();
  await page.getByTestId('wb-flow').selectOption(flowId);
  // The notice shows the example the rows below will send.
  const example = page.getByTestId('wb-example');
  await example.locator('summary').click();
  const shownText = await example.getByTestId('wb-example-request').allInnerTexts();
  expect(shownText).toEqual(examples.map((x) => formatWire(x.wire!).join('\n')));
  if (shot) {
    await screenshot(page, `door-example-${flowId}-1280`);
    await page.setViewportSize({ width: 350, height: 800 });
    await example.scrollIntoViewIfNeeded();
    await screenshot(page, `door-example-${flowId}-350`);
    // Readable at 350 px: the request wraps inside the pane; nothing of it (or the table choice below) runs off it.
    const overflowing = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="wb-example"], [data-testid="wb-example"] *, [data-testid="wb-table"]')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(overflowing).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await example.locator('summary').click();

  await page.getByTestId('wb-new-template').click();
  await page.getByTestId('template-done').waitFor();
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.row)))];
  await pasteRowsByName(page, 'A2', [columns, ...rows.map((r) => columns.map((c) => typed(r.row[c] ?? null)))]);
  await page.getByTestId('wb-validate').click();
  await page.getByTestId('wb-validation').waitFor();
  expect(await page.getByTestId('wb-ready').innerText()).toBe(`${rows.length} row${rows.length > 1 ? 's' : ''} ready`);

  const wire = stack.accProxy!.recorded;
  const before = wire.length;
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-done').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('post-done').innerText()).toContain(
    `${rows.length} ${flow.resultStatus === 'created' ? 'created' : 'updated'}`,
  );
  // What went over the wire to the service, as the recording proxy saw it: the writes, in the order of the
  // rows (one row per create; a task's rows one after the other) and of each row's calls.
  const root = new URL(stack.acc.url).pathname;
  const writes = wire.slice(before).filter((r) => r.method !== 'GET');
  const sent = rows.flatMap(({ row, calls }) => calls.map((x) => ({ row, x })));
  const line = (method: string, path: string, query: string) => `${method} ${path}${query ? `?${query}` : ''}`;
  const anyGuid = (s: string) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{guid}');
  // Each request is the example the notice showed, byte for byte (a follow-up goes to the record the row made).
  const asShown = (l: string, i: number) => (sent[i]?.x.toMade ? anyGuid(l) : l);
  // A multipart form is compared by its parts: fetch writes its boundary.
  const parts = (fields: FormField[]) => Object.fromEntries(fields.map((f) => [f.name, 'value' in f ? f.value : f.file.filename]));
  const seen = writes.map((r, i) => [
    asShown(line(r.method, r.path.slice(root.length), r.query), i),
    ...(sent[i]?.x.wire?.multipart ? [r.contentType.split(';')[0], r.body] : [r.contentType, r.text]),
  ]);
  const shown = sent.map(({ x }, i) => [
    asShown(line(x.wire!.method, x.wire!.target, ''), i),
    ...(x.wire!.multipart ? ['multipart/form-data', parts(x.wire!.multipart)] : [x.wire!.contentType ?? '', x.wire!.body ?? '']),
  ]);
  return { rows, columns, writes, sent, seen, shown };
}

export function doorTests(files: readonly string[], shots: { file: string; flow: FlowId } | undefined): void {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  describe.each(files)('the customer file %s through the taskpane', (file) => {
    let stack: Stack;
    let page: Page;
    let binding: Binding;
    let acc: EnvironmentInfo;
    beforeAll(async () => {
      binding = (await importBinding(corpus(file), { accept: true })).binding;
      // The sandbox's default seed: the sample rows' names and GUIDs are its standing data.
      stack = await startStack({ scale: 20, seed: DEFAULT_SEED, bindings: { acc: binding }, apiFiles: { acc: corpus(file) }, recordAcc: true });
      page = await openPreview(browser, stack);
      if ((await connect(page, 'sandbox-acc', stack.acc.demoKey!)) !== 'ok') throw new Error(`the demo key did not connect: ${await page.getByTestId('connect-form').innerText()}`);
      const res = await fetch(`${stack.url}${environmentPath('sandbox-acc')}`);
      acc = (await res.json()) as EnvironmentInfo;
    }, 60_000);
    afterAll(async () => {
      await page?.close();
      await stack?.close();
    });

    it.each(Object.keys(WANTS[file]!) as FlowId[])('%s: the sample rows pasted in the grid and posted arrive where the file wants them', async (flowId) => {
      const wants = WANTS[file]![flowId]!;
      const examples = flowExamples(flowById(flowId), bindEnvironment(acc), sampleStanding());
      expect(examples.filter((x) => !x.wire).map((x) => x.problems)).toEqual([]);
      const { columns, writes, sent, seen, shown } = await postThroughTaskpane(page, stack, flowId, examples, shots?.file === file && shots.flow === flowId);
      expect(seen).toEqual(shown);
      const nameOf = namesByGuid(stack.acc);
      const customFields = CUSTOM_FIELDS[flowId] ? customFieldColumns(stack.acc, CUSTOM_FIELDS[flowId], columns) : [];
      const missing: string[] = [];
      writes.forEach((request, i) => {
        const { row, x } = sent[i]!;
        // The values of a task's row are in its update (Advance and Score and status send what the example shows).
        if (x.toMade || (flowId === 'tasks' && x.operation !== 'task-update-v2')) return;
        // A task's Status goes with Score and status only: the Update row is warned that it is not sent.
        const elsewhere = flowId === 'incidents' ? ['Hyperlink', ...extrasOf(binding, ['incident-hyperlink']).map((c) => c.header)] : [];
        missing.push(...dropped(row, request, { nameOf, wants, extras: extrasOf(binding, [x.operation]), customFields, skip: ['Task', 'Action', 'Status', ...elsewhere] }));
        const link = sent[i + 1]?.x.toMade ? writes[i + 1] : undefined;
        if (row.Hyperlink && wants.hyperlink && !valuesAt(link?.body, wants.hyperlink).includes(row.Hyperlink))
          missing.push(`Hyperlink: "${String(row.Hyperlink)}" not at ${wants.hyperlink} of the add-hyperlink request`);
      });
      expect(missing).toEqual([]);
    });
  });
}

