import { DATASETS_AND_OPERATIONS, describeEncoding, formatWire, mappingRows, replacesFields, type Binding, type BoundOperation } from '../catalog';
import { keepsDocumented } from '../catalog/binding';
import { environmentFrom, writebackEnvironment } from '../environment/environment';
import { sampleStanding } from '../sandbox/data/sample';
import { bindEnvironment } from '../writeback/environment/context';
import { flowExamples, type ExampleRequest } from '../writeback/environment/example';
import { FLOWS } from '../writeback/flows';
import type { Entry, ImportResult } from '../binding/import';

/**
 * The import report a person reads (its own part, not the binding's: it shows the requests the write-back
 * sends on the binding, and the binding importer, which the relay loads, never imports the write-back) (printed, and written next to the binding as `<name>.report.txt`).
 * It leads with the few decisions the admin must make (and the overrides line that makes each), then
 * shows each write operation's mapping side by side in the file's own words (property path, the
 * catalogue's meaning, the encoding), then the datasets, then what cannot be bound, summarised by
 * consequence (which flows, which columns), not line by line.
 */

const titleOf = (id: string) => DATASETS_AND_OPERATIONS.find((e) => e.id === id)?.title ?? id;

/** What an endpoint the binding lacks disables: the flows that post to it or read it, or the step it serves. */
export function disables(id: string): string[] {
  const out: string[] = [];
  for (const f of FLOWS) {
    const step = f.steps?.[id];
    if (f.operations.includes(id)) out.push(`the ${f.title} write-back (posts to it)`);
    else if (step) out.push(`the ${step.what} step of the ${f.title} write-back (the flow posts without it)`);
    else if (f.reconcileDataset === id || f.standingDatasets.includes(id)) out.push(`the ${f.title} write-back (reads it)`);
  }
  const e = DATASETS_AND_OPERATIONS.find((x) => x.id === id);
  if (e?.kind === 'dataset') out.unshift(`the ${e.title} dataset in the taskpane`);
  return out;
}

const usedBy = (id: string) => FLOWS.filter((f) => f.operations.includes(id) || f.steps?.[id]).map((f) => f.title);

const HOW: Record<string, string> = {
  exact: 'same method and path',
  name: 'matched by name',
  synonym: 'matched by a synonym',
  shape: 'matched by shape',
  admin: "the admin's choice",
};

function table(rows: [string, string, string][], indent: string): string[] {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([a, b, c]) => `${indent}${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`.trimEnd());
}

/** Per flow, the requests one sample row of it sends on an environment bound by this binding. */
function bindingExamples(binding: Binding): Map<string, { flow: string; examples: ExampleRequest[] }> {
  const environment = bindEnvironment(writebackEnvironment(environmentFrom({ name: 'the bound environment', binding, production: false })));
  const sample = sampleStanding();
  return new Map(FLOWS.map((f) => [f.id, { flow: f.title, examples: flowExamples(f, environment, sample) }]));
}

/**
 * The operation's example requests: made by the write-back from a sample row (flowExamples), rendered from
 * the bytes the client sends (formatWire), so the report cannot show one thing and the post send another.
 */
function exampleLines(id: string, examples: ReturnType<typeof bindingExamples>): string[] {
  const lines: string[] = [];
  const flows = FLOWS.filter((f) => f.operations.includes(id) || f.steps?.[id]);
  if (!flows.length) return ['    example request: none (no write-back flow sends it)'];
  for (const f of flows) {
    const { flow, examples: all } = examples.get(f.id)!;
    const mine = all.filter((x) => x.operation === id);
    if (!mine.length) {
      lines.push(`    example request: none (the ${flow} write-back cannot post on this binding; see WHAT CANNOT BE BOUND)`);
      continue;
    }
    for (const x of mine) {
      const from = `a sample row of the ${flow} write-back${x.variant ? ` (${x.variant})` : ''}, typed from the sandbox's standing data`;
      if (!x.wire) {
        lines.push(`    example request: the sample row (${from}) is refused here:`, ...x.problems!.map((p) => `      ${p}`));
        continue;
      }
      const to = x.toMade ? ' (to the record the row creates: a sample GUID here)' : '';
      lines.push(`    example request, exactly as sent for ${from}${to}:`, ...formatWire(x.wire).map((l) => `      ${l}`.trimEnd()));
    }
  }
  return lines;
}

/** `shown`: the catalogue record fields the bound tasks dataset shows (what a full update can carry over). */
function operationLines(e: Entry, overrides: string, examples: ReturnType<typeof bindingExamples>, shown: ReadonlySet<string>): string[] {
  const s = e.chosen!;
  const b = s.bound as BoundOperation;
  const op = s.f.op;
  const id = e.side.e.id;
  const flows = usedBy(id);
  const lines = [
    `  ${titleOf(id)} (${id})  ->  ${b.method} ${op.filePath}${op.operationId ? `  [${op.operationId}]` : ''}`,
    `    ${e.accepted ? 'taken with --accept (the best of a near-tie)' : b.how === 'name' && s.evidence.length ? `matched by its words (${s.evidence.join(', ')})` : HOW[b.how]}${flows.length ? `; used by ${flows.join(', ')}` : ''}${op.deprecated ? '; DEPRECATED in the file' : ''}${b.kind === 'operation' && b.form ? `; the body is sent as a ${b.form === 'urlencoded' ? 'form (application/x-www-form-urlencoded)' : 'multipart form (multipart/form-data)'}` : ''}`,
  ];
  const rows: [string, string, string][] = [['file', 'catalogue meaning', 'encoding']];
  const mapped = mappingRows(b);
  b.placements.forEach((p, i) => {
    const how = p.how === 'exact' || p.how === 'name' || p.field === '{guid}' ? '' : ` (${p.how})`;
    rows.push([mapped[i]!.file, `${mapped[i]!.meaning}${how}`, mapped[i]!.encoding]);
    if (p.encoding.kind === 'objects')
      for (const f of p.encoding.fields) rows.push([`  ${p.at}[]${f.at}`, `  ${p.field}.${f.field}`, describeEncoding(f.encoding)]);
  });
  b.extras.forEach((x, i) => {
    const row = mapped[b.placements.length + i]!;
    const required = x.required ? (x.default === undefined ? ' (required)' : ` (required, default ${JSON.stringify(x.default)})`) : '';
    rows.push([row.file, `${row.meaning}${required}`, row.encoding]);
  });
  lines.push(...table(rows, '    '));
  if (b.answer) lines.push(`    new id: ${b.answer.in === 'header' ? 'the Location header' : `answer body ${b.answer.at || '(the whole body)'}`}`);
  if (b.omit?.length)
    lines.push(`    safe to omit (the admin's overrides): ${b.omit.join(', ')}; left out of the update where a row leaves it blank and its current value cannot be read`);
  // A full update erases what it leaves out: a field the records do not show must be typed on every row.
  const unknown = replacesFields(id, b.method)
    ? b.placements.filter((p) => p.in === 'body' && !shown.has(p.field) && !b.omit?.includes(p.field)).map((p) => p.field)
    : [];
  if (unknown.length)
    lines.push(
      `    replaces every field it sends, and the tasks dataset does not show ${unknown.join(', ')}: rows that leave them blank are refused (a blank would erase the task's value). If your service keeps a field this request leaves out, declare it in ${overrides}:`,
      ...unknown.map((f) => `      omit ${id} ${f}`),
    );
  for (const o of e.others)
    lines.push(
      `    not chosen: ${o.f.op.method} ${o.f.op.filePath}${o.f.op.operationId ? ` [${o.f.op.operationId}]` : ''}${o.f.op.deprecated ? ' (deprecated)' : ''}, score ${o.score.toFixed(2)}; to use it: use ${id} = ${o.f.op.method} ${o.f.op.path}  (in ${overrides})`,
    );
  lines.push(...exampleLines(id, examples));
  return lines;
}

function datasetSummary(e: Entry): string | undefined {
  const s = e.chosen!;
  const b = s.bound;
  if (b.kind !== 'dataset') return undefined;
  const renamed = b.placements.filter((p) => p.in === 'body' && (p.at !== `/${p.field}` || p.encoding.kind !== 'plain'));
  const moved = s.f.op.path !== e.side.e.path;
  if (!renamed.length && !moved && b.records === '') return undefined;
  const fields = renamed.map((p) => `${p.field}=${p.at.slice(1).replace(/\//g, '.')}${p.encoding.kind !== 'plain' ? ` (${describeEncoding(p.encoding)})` : ''}`);
  return `  ${titleOf(e.side.e.id)} (${e.side.e.id}) -> GET ${s.f.op.filePath}${b.records ? ` [records at ${b.records}]` : ''}${fields.length ? `: ${fields.join(', ')}` : ''}`;
}

export function formatReport(r: ImportResult, files: { binding?: string; report?: string; overrides?: string } = {}): string {
  const s = r.binding.source;
  const overrides = files.overrides ?? 'the overrides file';
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  const spec = s.spec === 'swagger-2.0' ? 'Swagger 2.0' : s.spec === 'openapi-3.1' ? 'OpenAPI 3.1' : s.spec === 'openapi-3.2' ? 'OpenAPI 3.2 (read as 3.1)' : 'OpenAPI 3.0';
  push(
    `grc-sheets binding import: ${s.file}`,
    `  ${spec}${s.title ? `, "${s.title}"` : ''}${s.apiVersion ? ` version ${s.apiVersion}` : ''}; sha256 ${s.sha256.slice(0, 16)}...; ${r.parsed.operations.length} operations`,
    `  Base path ${s.basePath}: paths below are as the file writes them; the relay's base URL for this environment ends where`,
    `  they begin${/(^|\/)api(\/|$)/.test(s.basePath) || r.parsed.operations.some((o) => /(^|\/)api(\/|$)/.test(o.filePath)) ? ' (after the /api root)' : ' (the file has no /api segment: the server root)'}.`,
    s.overrides ? `  Overrides: ${s.overrides.file} (${r.applied} applied${r.dropped.length ? `, ${r.dropped.length} dropped` : ''}).` : `  No overrides file applied.`,
  );

  // 1. Decisions.
  const decisions: string[][] = [];
  for (const e of r.entries) {
    if (!e.decision) continue;
    const id = e.side.e.id;
    const until = keepsDocumented(r.binding, e.side.e)
      ? `kept at the spec's documented path ${e.side.e.path} until you choose`
      : 'unavailable until you choose';
    const d = [
      e.decision.shapeOnly
        ? `${titleOf(id)} (${id}): ${e.decision.reason}; only the fields of the operations below fit (--accept never takes one); ${until} one, or \`none ${id}\`.`
        : `${titleOf(id)} (${id}): ${e.decision.reason}; ${until}.`,
    ];
    e.decision.candidates.forEach((c, i) => {
      const op = c.f.op;
      d.push(
        `   ${String.fromCharCode(97 + i)}) ${op.method} ${op.filePath}${op.operationId ? ` [${op.operationId}]` : ''}${op.summary ? ` "${op.summary}"` : ''}${op.deprecated ? ' DEPRECATED' : ''}: score ${c.score.toFixed(2)}; ${c.reasons.join('; ')}`,
      );
    });
    d.push(`   To choose, add to ${overrides}:  use ${id} = ${e.decision.candidates[0]!.f.op.method} ${e.decision.candidates[0]!.f.op.path}`);
    decisions.push(d);
  }
  for (const e of r.entries) {
    const b = e.chosen?.bound;
    if (b?.kind !== 'operation') continue;
    for (const x of b.extras.filter((x) => x.required && x.default === undefined)) {
      const example = x.values?.[0] !== undefined ? JSON.stringify(x.values[0]) : x.cell === 'boolean' ? 'false' : '"..."';
      decisions.push([
        `${titleOf(e.side.e.id)}: the file requires ${x.fileName}${x.values ? ` (one of ${x.values.join(', ')})` : ''} and no catalogue field fills it: every row fills the column "${x.header}", or give a default:`,
        `   default ${e.side.e.id} ${x.key} = ${example}`,
      ]);
    }
  }
  // An enum the file does not name (which number is "Months"): never guessed, the admin maps it.
  for (const c of r.binding.consequences.filter((x) => x.kind === 'enum-unread')) {
    const { why, maps: lines } = c.unread ?? { why: c.message, maps: [] };
    decisions.push([
      `${titleOf(c.endpoint)} (${c.endpoint}): ${c.columns.join(', ')}: ${why}; rows with them are refused on that cell until you add to ${overrides}, with the file's value for each:`,
      ...lines.map((l) => `   ${l}`),
    ]);
  }
  for (const d of r.dropped) decisions.push([`${overrides} line ${d.line} "${d.text}" no longer applies: ${d.reason}. Change or remove it.`]);
  push('', `DECISIONS FOR THE ADMIN: ${decisions.length}`);
  if (!decisions.length) push('  none: every endpoint is bound, or unavailable for a reason listed at the end.');
  decisions.forEach((d, i) => push(`  ${i + 1}. ${d[0]}`, ...d.slice(1).map((l) => `  ${l}`)));

  // 2. Write operations, in the file's words.
  const ops = r.entries.filter((e) => e.chosen && e.chosen.bound.kind === 'operation');
  push('', `WRITE OPERATIONS: ${ops.length} bound, in the file's words, each with the request a sample row sends`);
  const examples = bindingExamples(r.binding);
  const tasks = r.binding.endpoints.tasks;
  const shown = new Set(tasks?.kind === 'dataset' ? tasks.placements.filter((p) => p.in === 'body').map((p) => p.field) : []);
  for (const e of ops) push(...operationLines(e, overrides, examples, shown));

  // 3. Datasets.
  const ds = r.entries.filter((e) => e.chosen && e.chosen.bound.kind === 'dataset');
  const changed = ds.map(datasetSummary).filter((x): x is string => !!x);
  push('', `DATASETS: ${ds.length} bound (${ds.length - changed.length} exactly as the catalogue has them)`);
  push(...changed);

  // 4. What cannot be bound, by consequence.
  push('', 'WHAT CANNOT BE BOUND, by consequence');
  // A documented dataset the file does not list stays at the spec's path: not a consequence, said below.
  const kept = r.entries.filter((e) => !e.chosen && keepsDocumented(r.binding, e.side.e));
  const unbound = r.entries.filter((e) => !e.chosen && !kept.includes(e));
  const flowsOff = new Map<string, string[]>();
  const stepsOff: string[] = [];
  const datasetsOff: string[] = [];
  for (const e of unbound) {
    const id = e.side.e.id;
    const why = e.decision ? 'awaits your decision' : (e.missing ?? 'not in the file');
    if (e.side.e.kind === 'dataset') datasetsOff.push(titleOf(id));
    for (const f of FLOWS) {
      if (f.operations.includes(id) || (e.side.e.kind === 'dataset' && (f.reconcileDataset === id || f.standingDatasets.includes(id))))
        flowsOff.set(f.title, [...(flowsOff.get(f.title) ?? []), `${titleOf(id)}: ${why}`]);
      else if (f.steps?.[id]) stepsOff.push(`the ${f.steps[id]!.what} step of ${f.title} (${titleOf(id)}: ${why})`);
    }
  }
  let any = false;
  if (flowsOff.size) {
    any = true;
    push('  Write-backs affected:');
    for (const [flow, whys] of flowsOff) push(`    ${flow}: ${whys.join('; ')}`);
  }
  if (stepsOff.length) {
    any = true;
    push(`  Steps skipped (the flow posts without them): ${stepsOff.join('; ')}`);
  }
  const opsOff = unbound.filter((e) => e.side.e.kind === 'operation' && !FLOWS.some((f) => f.operations.includes(e.side.e.id) || f.steps?.[e.side.e.id]));
  if (opsOff.length) {
    any = true;
    push(`  Other operations unavailable (${opsOff.length}): ${opsOff.map((e) => titleOf(e.side.e.id)).join(', ')}`);
  }
  if (datasetsOff.length) {
    any = true;
    push(`  Datasets unavailable in the taskpane (${datasetsOff.length}): ${datasetsOff.join(', ')}`);
  }
  const notOffered = r.binding.consequences.filter((c) => c.kind === 'field-not-in-file' && r.binding.endpoints[c.endpoint]?.kind === 'operation');
  if (notOffered.length) {
    any = true;
    push('  Template columns not offered (the file has no place for them):');
    for (const c of notOffered) push(`    ${titleOf(c.endpoint)}: ${c.columns.join(', ')}`);
  }
  const empty = r.binding.consequences.filter((c) => c.kind === 'field-not-in-file' && r.binding.endpoints[c.endpoint]?.kind === 'dataset');
  if (empty.length) {
    any = true;
    push(`  Dataset columns that stay empty (the file's records lack them): ${empty.map((c) => `${titleOf(c.endpoint)}: ${c.columns.join(', ')}`).join('; ')}`);
  }
  const unfillable = r.binding.consequences.filter((c) => c.kind === 'required-extra' && /cannot be typed/.test(c.message));
  for (const c of unfillable) {
    any = true;
    push(`  ${titleOf(c.endpoint)}: the file requires ${c.columns.join(', ')}, which no cell can fill; the service will refuse these rows until you place them`);
  }
  if (!any) push('  nothing: every catalogue endpoint is bound.');

  push('', `Documented datasets the file does not list: ${kept.length}${kept.length ? ' (documented, not in your API file)' : ''}`);
  if (kept.length) {
    push("  Kept at the spec's documented path, so the taskpane, the relay and the check still offer them; the service");
    push(`  answers there unless it has moved them. To take one away, add to ${overrides}:  none <id>`);
    for (const e of kept) push(`  ${titleOf(e.side.e.id)} (${e.side.e.id}): GET ${e.side.e.path}`);
  }
  push('', `Datasets the file has and the catalogue lacks: ${r.binding.extraDatasets.length}`);
  for (const x of r.binding.extraDatasets)
    push(`  ${x.id}: "${x.title}" GET ${x.path} (${x.properties.length} columns, untyped: text)`);
  if (r.parsed.skipped.length) {
    push('', 'Not bindable:');
    for (const line of r.parsed.skipped) push(`  ${line}`);
  }
  push(
    '',
    r.unresolved.length
      ? `Result: ${r.unresolved.length} decision${r.unresolved.length > 1 ? 's' : ''} open (exit status 1): add the "use" lines above to ${overrides} and import again, or pass --accept.`
      : 'Result: every endpoint is bound or its consequence is listed (exit status 0).',
  );
  const unread = r.binding.consequences.filter((c) => c.kind === 'enum-unread');
  if (unread.length)
    push(`Until their map lines are in ${overrides}, rows with a value of ${unread.map((c) => `${c.endpoint} ${c.columns.join(', ')}`).join('; ')} are refused on that cell (the file does not say which of its values means it).`);
  if (files.binding) push(`Binding written to ${files.binding}${files.report ? `, this report to ${files.report}` : ''}.`);
  return lines.join('\n') + '\n';
}
