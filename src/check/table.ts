import { heldKeyLine } from './held-key';
import { PASSING, READ_ONLY_NOTICE, type CheckReport, type DatasetCheck } from './report';

const LABEL: Record<DatasetCheck['result'], string> = {
  answers: 'ok',
  empty: 'ok (empty)',
  'sandbox-lacks': 'ok (no data in sandbox)',
  'bad-shape': 'FAIL shape',
  'not-found': 'FAIL 404',
  forbidden: 'FAIL 403',
  'refused-key': 'FAIL 401',
  failed: 'FAIL',
  'not-checked': 'skipped',
  'not-in-binding': 'not bound',
};

/** The report for people: the read-only notice first, one line per dataset, then what to do per failure. */
export function renderTable(report: CheckReport): string {
  const t = report.target;
  const where =
    t.via === 'relay'
      ? `relay ${t.url}, environment ${t.environment}${t.production ? ' (production)' : ''}`
      : `service ${t.url}`;
  const rows = report.datasets.map((d) => [
    LABEL[d.result],
    `${d.title} (${d.id})`,
    `${d.path} [${d.notInFile ? 'documented, not in your API file' : d.pathSource}]`,
  ]);
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length), i ? 7 : 6));
  const line = (r: string[]) => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]}`.trimEnd();
  // Failures, and the practice sandbox's gaps: passing, but the user reads why those datasets had no data.
  const failures = report.datasets.filter((d) => !PASSING.has(d.result) || d.result === 'sandbox-lacks');
  const s = report.summary;
  return [
    READ_ONLY_NOTICE,
    '',
    `Checking ${where}; paths from ${t.binding ? `the binding of ${t.binding.file} (sha256 ${t.binding.sha256.slice(0, 12)}…)` : "the catalogue's own (no binding)"}.`,
    `Key: ${report.authentication.message}`,
    ...(report.heldKey ? [heldKeyLine(report.heldKey, t.environment ?? '')] : []),
    '',
    line(['Result', 'Dataset', 'Path [source]']),
    ...rows.map(line),
    '',
    ...grouped(failures).flatMap(({ label, message, fix, titles }) => [
      `${label}  ${titles.length === 1 ? titles[0] : `${titles.length} datasets (${titles.join(', ')})`}: ${message}`,
      ...(fix ? [`    → ${fix}`] : []),
      '',
    ]),
    `${s.checked} checked: ${s.passed} passed, ${s.failed} failed; ${s.notChecked} not checked.`,
    report.ok ? 'Check passed.' : 'Check FAILED.',
  ].join('\n');
}

/** Failures with the same cause and fix (a key without Get direct data fails every DirectData dataset) are said once. */
function grouped(failures: readonly DatasetCheck[]) {
  const groups = new Map<string, { label: string; message: string; fix?: string; titles: string[] }>();
  for (const d of failures) {
    // Shape problems name their record and field: those stay one per dataset.
    const key =
      d.result === 'bad-shape' || d.result === 'failed'
        ? `${d.id}`
        : `${d.result}|${d.message}|${d.fix ?? ''}`;
    const g = groups.get(key);
    if (g) g.titles.push(`${d.title} (${d.id})`);
    else
      groups.set(key, {
        label: LABEL[d.result],
        message: d.message,
        ...(d.fix ? { fix: d.fix } : {}),
        titles: [`${d.title} (${d.id})`],
      });
  }
  return [...groups.values()];
}
