import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import { formatReport } from '../../src/binding-report';
import { createCatalog, formatWire, type Binding } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { type EnvironmentView } from '../../src/contracts/environments';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { sampleStanding } from '../../src/sandbox/data/sample';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { bindEnvironment, FLOWS, type AnyFlow } from '../../src/writeback';
import { flowExamples, type ExampleRequest } from '../../src/writeback/environment/example';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { relayViews } from '../relay/helpers';

/**
 * The example request the import report and the taskpane show is what the service receives: for customer
 * files of the corpus, each flow's sample row is typed into a template made through a relay bound to the
 * file, posted to the bound sandbox (the default seed: the sample's standing data), and the request the
 * sandbox accepted has the example's method, path, query and body, byte for byte.
 */
const FILES = ['initech.openapi.json', 'hooli.openapi.yaml', 'vandelay.swagger.json'];
const corpus = (name: string) => join(__dirname, '..', 'binding', 'corpus', name);

interface World {
  binding: Binding;
  sandbox: Sandbox;
  relay: Relay;
  client: GrcClient;
  acc: EnvironmentView;
}

async function startWorld(file: string): Promise<World> {
  const { binding } = await importBinding(corpus(file), { accept: true });
  const bindingFile = join(mkdtempSync(join(tmpdir(), 'example-')), 'binding.json');
  writeFileSync(bindingFile, JSON.stringify(binding));
  const sandbox = await startSandbox({ scale: 5, binding, apiFile: corpus(file) });
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
  return { binding, sandbox, relay, client, acc: acc! };
}

/** Posts one example's sample row as a user would: a new template, the row typed in, Validate, Post. */
async function postRow(w: World, flow: AnyFlow, x: ExampleRequest) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: w.client, workbook, flow, environment: w.acc });
  // The sample row has exactly the template's columns: every one the environment takes a value in.
  expect(Object.keys(x.row).filter((c) => !shape.columns.includes(c))).toEqual([]);
  await workbook.writeRows(shape.name, 0, [shape.columns.map((c) => x.row[c] ?? null)]);
  const plan = await preparePost({ api: w.client, workbook, table: shape.name, flow, environment: w.acc });
  expect(plan.validation.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return plan.run();
}

/** The flow's examples, a task's Advance last: once advanced, a task takes only its score and comment. */
const ordered = (xs: ExampleRequest[]) => [...xs.filter((x) => x.operation !== 'task-advance'), ...xs.filter((x) => x.operation === 'task-advance')];

describe.each(FILES)('the example requests of %s', (file) => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(file);
  });
  afterAll(async () => {
    await w?.relay.close();
    await w?.sandbox.close();
  });

  it.each(FLOWS.map((f) => [f.id, f] as const))('%s: each example is what the sandbox receives for its row', async (_id, flow) => {
    const examples = flowExamples(flow, bindEnvironment(w!.acc), sampleStanding());
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter((x) => !x.wire).map((x) => [x.operation, x.problems])).toEqual([]);
    const rows = new Map<string, ExampleRequest[]>();
    for (const x of examples) rows.set(JSON.stringify(x.row), [...(rows.get(JSON.stringify(x.row)) ?? []), x]);
    for (const calls of ordered([...rows.values()].map((xs) => xs[0]!)).map((x) => rows.get(JSON.stringify(x.row))!)) {
      const before = w!.sandbox.store.received.length;
      const summary = await postRow(w!, flow, calls[0]!);
      expect(summary.outcomes.map((o) => [o.status, o.message])).toEqual([[flow.resultStatus, expect.any(String)]]);
      const made = summary.outcomes[0]!.guid;
      const got = w!.sandbox.store.received.slice(before);
      // The sandbox's incident types all have required custom fields: on a file without custom fields the
      // service refuses the hyperlink (spec, Incident rule 8), and the row says so; nothing else may be missing.
      const refused = /^Created, but the service refused the hyperlink .*required custom field/.test(summary.outcomes[0]!.message);
      expect(got.map((r) => r.endpoint)).toEqual(calls.slice(0, refused ? 1 : calls.length).map((x) => x.operation));
      calls.slice(0, got.length).forEach((x, i) => {
        const r = got[i]!;
        const target = `${r.path}${r.query ? `?${r.query}` : ''}`;
        const [expectedPath] = x.wire!.target.split('?');
        // A follow-up (a hyperlink) goes to the record the row made; the example names a sample record there.
        const path = i === 0 ? expectedPath : expectedPath!.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, made);
        expect(`${r.method} ${target}`).toBe(`${x.wire!.method} ${path}${x.wire!.target.slice(expectedPath!.length)}`);
        expect(r.body === undefined ? undefined : JSON.stringify(r.body)).toBe(x.wire!.body);
      });
    }
  });

  it('the import report ends each bound write operation with its example, as the client sends it', async () => {
    const { binding, ...r } = await importBinding(corpus(file), { accept: true });
    const text = formatReport({ binding, ...r });
    const examples = FLOWS.flatMap((f) => flowExamples(f, bindEnvironment(w!.acc), sampleStanding()));
    for (const x of examples) {
      const block = formatWire(x.wire!).map((l) => `      ${l}`.trimEnd()).join('\n');
      expect(text).toContain(block);
    }
    for (const [id, e] of Object.entries(binding.endpoints))
      if (e.kind === 'operation') expect(text).toMatch(new RegExp(`\\(${id}\\)  ->[^]*?example request`));
  });
});
