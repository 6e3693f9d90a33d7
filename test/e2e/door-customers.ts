/**
 * The taskpane door (./door.ts) for the customer files of test/binding/customers (written by someone who had not
 * read src/binding): per file, the file imported as `grc-sheets binding import --accept` does, a sandbox shaped by
 * it behind a recording proxy and a relay given the binding, and per flow the sample rows of the flow's notice
 * (every template column typed where the environment takes a value) pasted in the preview grid, validated and
 * posted. What the proxy saw is read against the file's own wants by the code every door of these files uses
 * (test/binding/customers/read-wants.ts), and must be the example request the notice showed. What the product
 * does not pass yet is listed in test/binding/customers/known-gaps-taskpane.ts. Used by door-customers-*.test.ts.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { importBinding } from '../../src/binding';
import type { Binding } from '../../src/catalog';
import { environmentPath } from '../../src/contracts/environments';
import { DEFAULT_SEED, sampleStanding } from '../../src/sandbox/data/sample';
import { bindEnvironment, flowById, type EnvironmentInfo, type FlowId } from '../../src/writeback';
import { flowExamples } from '../../src/writeback/environment/example';
import { TASKPANE_KNOWN_GAPS } from '../binding/customers/known-gaps-taskpane';
import { checkAgainstGaps, columnProblems, CUSTOMER_WANTS, customFieldProblems, pathProblems, type Received } from '../binding/customers/read-wants';
import { typedFields } from '../binding/customers/typed-fields';
import type { FlowWants } from '../binding/customers/wants';
import { extrasOf, namesByGuid } from '../support/wants-check';
import type { Recorded } from '../support/recording-proxy';
import { postThroughTaskpane, type TaskpanePost } from './door';
import { connect, launchBrowser, openPreview, startStack, type Stack, type TestBrowser } from './harness';

const customers = (name: string) => join(__dirname, '..', 'binding', 'customers', name);
const FLOWS: readonly FlowId[] = ['incidents', 'thirdparties', 'contracts', 'tasks'];
const CUSTOM_FIELDS: Partial<Record<FlowId, string>> = {
  incidents: 'incidenttypecustomfields',
  thirdparties: 'thirdpartycustomfields',
  contracts: 'thirdpartycontractcustomfields',
};

/** The wants of the file for one catalogue operation a write went to. */
function wantsFor(file: string, operation: string): FlowWants | { operation: string; pathLike?: string } | undefined {
  const w = CUSTOMER_WANTS[file]!;
  return {
    'incident-create': w.incidents,
    'incident-hyperlink': w.incidents.hyperlink,
    'thirdparty-create': w.thirdparties,
    'contract-create': w.contracts,
    'task-update-v2': w.taskUpdate,
    'task-score-status': w.taskScoreStatus,
    'task-advance': w.taskAdvance,
  }[operation];
}

/** Every typed value of the posted rows not where the file's wants say, in words (read-wants.ts reads them). */
function valueProblems(file: string, flowId: FlowId, stack: Stack, binding: Binding, post: TaskpanePost): string[] {
  const out: string[] = [];
  const w = { nameOf: namesByGuid(stack.acc) };
  // The wants' paths are below the API root, as the sandbox sees them.
  const root = new URL(stack.acc.url).pathname.replace(/\/$/, '');
  const received = (r: Recorded): Received => ({ path: r.path.startsWith(root) ? r.path.slice(root.length) : r.path, body: r.body });
  if (post.writes.length !== post.sent.length) out.push(`${post.writes.length} writes reached the service for ${post.sent.length} example calls`);
  post.writes.forEach((request, i) => {
    const { row, x } = post.sent[i] ?? {};
    if (!row || !x) return;
    const say = (problem: string) => out.push(`${x.variant ?? flowId} (${x.operation}): ${problem}`);
    const want = wantsFor(file, x.operation);
    if (!want) return say('an operation the wants do not expect');
    const got = received(request);
    pathProblems(got, want).forEach(say);
    if (!('columns' in want)) return; // an advance: its path is what its wants say
    if (x.toMade) {
      columnProblems(w, { Hyperlink: row.Hyperlink ?? null }, got, want).forEach(say);
      return;
    }
    // Extra columns (the file's own parameters the admin's binding adds) have no wants: they are the file's, not ours.
    const extras = extrasOf(binding, [x.operation, ...(flowId === 'incidents' ? ['incident-hyperlink'] : [])]).map((c) => c.header);
    const fields = CUSTOM_FIELDS[flowId] ? typedFields(stack.acc, CUSTOM_FIELDS[flowId], row) : [];
    // A Score and status row is read for what that operation carries (the row's other cells are the Update's).
    const cells = Object.fromEntries(
      Object.entries(row).filter(([c]) => !extras.includes(c) && c !== 'Hyperlink' && (x.operation !== 'task-score-status' || c in want.columns)),
    );
    // The sample row types every column the environment takes: a column the wants place that is not typed was refused.
    for (const column of Object.keys(want.columns))
      if (column !== 'Hyperlink' && (cells[column] === undefined || cells[column] === null || cells[column] === ''))
        say(`${column}: not typed in the sample row (the environment has no such column or refused the value)`);
    // A task's Status goes with Score and status only: the Update row is warned that it is not sent.
    const skip = [...fields.map((f) => f.column), ...(x.operation === 'task-update-v2' ? ['Status'] : [])];
    columnProblems(w, cells, got, want, skip).forEach(say);
    if (want.customFields && fields.length) customFieldProblems(got, want.customFields, fields).forEach(say);
  });
  return out;
}

export function customerDoorTests(files: readonly string[]): void {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  describe.each(files)('the customer file %s through the taskpane', (file) => {
    let stack: Stack | undefined;
    let page: Page;
    let binding: Binding;
    let acc: EnvironmentInfo;
    /** Why the stack did not start for this file (each flow's checks say so). */
    let notStarted = '';
    beforeAll(async () => {
      try {
        binding = (await importBinding(customers(file), { accept: true })).binding;
        // The sandbox's default seed: the sample rows' names and GUIDs are its standing data.
        stack = await startStack({ scale: 20, seed: DEFAULT_SEED, bindings: { acc: binding }, apiFiles: { acc: customers(file) }, recordAcc: true });
        page = await openPreview(browser, stack);
        if ((await connect(page, 'sandbox-acc', stack.acc.demoKey!)) !== 'ok') throw new Error(`the demo key did not connect: ${await page.getByTestId('connect-form').innerText()}`);
        const res = await fetch(`${stack.url}${environmentPath('sandbox-acc')}`);
        acc = (await res.json()) as EnvironmentInfo;
      } catch (e) {
        notStarted = `did not start: ${(e as Error).message.split('\n').slice(0, 3).join(' / ')}`;
      }
    }, 60_000);
    afterAll(async () => {
      await page?.close();
      await stack?.close();
    });

    it.each(FLOWS)('taskpane %s: the sample rows pasted, validated and posted arrive where the file wants them, as the notice showed', async (flowId) => {
      const problems = { values: [] as string[], example: [] as string[] };
      try {
        if (notStarted) throw new Error(notStarted);
        const examples = flowExamples(flowById(flowId), bindEnvironment(acc), sampleStanding());
        if (!examples.length) throw new Error('no example request: the flow cannot post on this binding');
        const refused = examples.filter((x) => !x.wire).map((x) => `${x.variant ?? x.operation}: the sample row is refused (${x.problems?.join('; ')})`);
        if (refused.length) throw new Error(refused.join(' / '));
        const post = await postThroughTaskpane(page, stack!, flowId, examples, false);
        // Each request is the example the notice showed.
        post.seen.forEach((s, i) => JSON.stringify(s) !== JSON.stringify(post.shown[i]) && problems.example.push(`write ${i + 1}: sent ${JSON.stringify(s)}, the notice showed ${JSON.stringify(post.shown[i])}`));
        if (post.seen.length !== post.shown.length) problems.example.push(`${post.seen.length} writes sent, the notice showed ${post.shown.length}`);
        problems.values.push(...valueProblems(file, flowId, stack!, binding, post));
      } catch (e) {
        const crash = `did not post: ${(e as Error).message.split('\n').slice(0, 3).join(' / ')}`;
        problems.values.push(crash);
        problems.example.push(crash);
      }
      await checkAgainstGaps(TASKPANE_KNOWN_GAPS, 'customers/known-gaps-taskpane.ts', file, `taskpane ${flowId}`, () => problems.values);
      await checkAgainstGaps(TASKPANE_KNOWN_GAPS, 'customers/known-gaps-taskpane.ts', file, `taskpane ${flowId} example`, () => problems.example);
    }, 60_000);
  });
}
