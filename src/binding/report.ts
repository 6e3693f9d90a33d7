import { DATASETS_AND_OPERATIONS } from '../catalog';
import { FLOWS } from '../writeback/flows';
import type { ImportResult } from './import';

/**
 * The import report a person reads (printed, and written next to the binding as `<name>.report.txt`):
 * matched (with how), ambiguous (with candidates and how to pick), missing (with the flows and datasets that
 * disables), the differences that matter, and the datasets the file has and the catalogue lacks.
 */

const titleOf = (id: string) => DATASETS_AND_OPERATIONS.find((e) => e.id === id)?.title ?? id;

/** What an endpoint the binding lacks disables: the flows that post to it or read it, or the step it serves. */
export function disables(id: string): string[] {
  const out: string[] = [];
  for (const f of FLOWS) {
    const step = f.steps?.[id];
    if (f.operations.includes(id)) out.push(`the ${f.title} write-back (posts to it)`);
    else if (step) out.push(`the ${step.what} step of the ${f.title} write-back (the flow posts without it)`);
    else if (f.reconcileDataset === id || f.standingDatasets.includes(id))
      out.push(`the ${f.title} write-back (reads it)`);
  }
  const e = DATASETS_AND_OPERATIONS.find((x) => x.id === id);
  if (e?.kind === 'dataset') out.unshift(`the ${e.title} dataset in the taskpane`);
  return out;
}

const HOW: Record<string, string> = {
  exact: 'same method and path',
  name: 'by name (path words, operationId, tags, summary)',
  shape: 'by shape (properties)',
  picked: 'picked by the admin',
};

export function formatReport(r: ImportResult, files: { binding?: string; report?: string } = {}): string {
  const s = r.binding.source;
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  push(
    `grc-sheets binding import: ${s.file}`,
    `  ${s.spec === 'swagger-2.0' ? 'Swagger 2.0' : 'OpenAPI 3.x'}${s.title ? `, "${s.title}"` : ''}${s.apiVersion ? ` version ${s.apiVersion}` : ''}; sha256 ${s.sha256.slice(0, 16)}...`,
    `  Base path ${s.basePath}. Paths below are relative to the environment base URL the relay is configured with,`,
    `  which includes the API root (https://host/api): the file's base path and paths are joined and everything up`,
    `  to and including the first /api segment is dropped.`,
  );
  if (
    !/(^|\/)api(\/|$)/.test(s.basePath) &&
    r.parsed.operations.some((o) => !/(^|\/)api(\/|$)/.test(o.filePath))
  ) {
    push(
      `  Note: the file has no /api segment; its paths are kept whole, so the base URL must be the server root.`,
    );
  }
  const byHow = (how: string) => r.matched.filter((m) => m.bound.how === how && !m.accepted);
  push('', `Matched: ${r.matched.length}`);
  for (const how of ['exact', 'name', 'shape', 'picked']) {
    const list = byHow(how);
    if (!list.length) continue;
    push(`  ${HOW[how]}: ${list.length}`);
    if (how !== 'exact')
      for (const m of list)
        push(
          `    ${m.id} (${titleOf(m.id)}) -> ${m.bound.method} ${m.bound.path}${m.bound.operationId ? ` [${m.bound.operationId}]` : ''}`,
        );
  }
  const accepted = r.matched.filter((m) => m.accepted);
  if (accepted.length) {
    push(`  accepted with --accept (the best of an ambiguous set): ${accepted.length}`);
    for (const m of accepted) push(`    ${m.id} (${titleOf(m.id)}) -> ${m.bound.method} ${m.bound.path}`);
  }

  push('', `Ambiguous: ${r.ambiguous.length}`);
  for (const a of r.ambiguous) {
    push(`  ${a.id} (${titleOf(a.id)}): candidates`);
    for (const c of a.candidates)
      push(
        `    ${c.ref}${c.op.operationId ? ` [${c.op.operationId}]` : ''}${c.op.summary ? ` "${c.op.summary}"` : ''} score ${c.score.toFixed(2)}`,
      );
    if (a.stalePick) push(`    the earlier pick "${a.stalePick}" is no longer a candidate`);
  }
  if (r.ambiguous.length) {
    push(
      `  To pick: set "pick" under ambiguous.<id> in ${files.binding ?? 'the binding file'} to one of the candidates`,
      `  (e.g. "pick": "${r.ambiguous[0]!.candidates[0]!.ref}") and run the import again with the same --out; or run`,
      `  it with --accept to take the best-scoring candidate. Until then these endpoints are unavailable.`,
    );
  }

  push('', `Missing: ${r.missing.length}`);
  for (const id of r.missing) {
    const d = disables(id);
    push(`  ${id} (${titleOf(id)})${d.length ? `: disables ${d.join('; ')}` : ''}`);
  }

  push('', 'Differences that matter:');
  let any = false;
  for (const m of r.matched) {
    // For a dataset, a property the file lacks is an empty column, listed once below, not per field.
    const isDataset = DATASETS_AND_OPERATIONS.find((e) => e.id === m.id)?.kind === 'dataset';
    const shown = isDataset
      ? m.differences.filter((d) => d.kind !== 'not-in-file' || !d.field)
      : m.differences;
    if (!shown.length) continue;
    any = true;
    push(`  ${m.id} (${titleOf(m.id)}, ${m.bound.method} ${m.bound.path}):`);
    for (const d of shown) push(`    - ${d.message}`);
  }
  const emptyColumns = r.matched.filter(
    (m) => m.bound.record && m.differences.some((d) => d.kind === 'not-in-file' && d.field),
  );
  for (const m of emptyColumns) {
    any = true;
    const fields = m.differences.filter((d) => d.kind === 'not-in-file' && d.field).map((d) => d.field);
    push(
      `  ${m.id} (${titleOf(m.id)}): the file's record lacks ${fields.join(', ')}; those columns stay empty`,
    );
  }
  if (!any) push('  none');

  push('', `Datasets the file has and the catalogue lacks: ${r.binding.extraDatasets.length}`);
  for (const x of r.binding.extraDatasets)
    push(`  ${x.id}: "${x.title}" GET ${x.path} (${x.properties.length} columns, untyped: text)`);
  if (r.parsed.skipped.length) {
    push('', 'Not bindable:');
    for (const s2 of r.parsed.skipped) push(`  ${s2}`);
  }
  push(
    '',
    r.unresolved.length
      ? `Result: ${r.unresolved.length} ambiguous without a pick (exit status 1).`
      : 'Result: every endpoint is bound or reported missing (exit status 0).',
  );
  if (files.binding)
    push(`Binding written to ${files.binding}${files.report ? `, this report to ${files.report}` : ''}.`);
  return lines.join('\n') + '\n';
}
