import {
  Button,
  Caption1,
  Checkbox,
  Field,
  Input,
  ProgressBar,
  Select,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../client';
import { firstBodyRow } from '../../workbook/address';
import {
  FLOWS,
  createTemplate,
  flowById,
  markProblems,
  preparePost,
  tableRecords,
  writeAudit,
  type FlowId,
  type PostPlan,
  type Problem,
  type Progress,
  type RunSummary,
  type TableRecord,
} from '../../writeback';
import { ErrorBar } from '../components/ErrorBar';
import { describeError, type UserMessage } from '../connection/messages';
import type { ScreenProps, Session } from '../screen';
import { ConfirmDialog } from './ConfirmDialog';
import { ProblemList } from './ProblemList';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'end' },
  narrow: { width: '96px' },
  counts: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

type Notice = { intent: 'error' | 'warning' | 'success' | 'info'; message: UserMessage; testId: string };

interface Checked {
  problems: Problem[];
  firstRow: number;
  errors: number;
  warnings: number;
  toSend: number;
  toCheck: number;
}

function failure(e: unknown, environment: string): UserMessage {
  if (isApiError(e)) return describeError(e, environment);
  return { title: 'Something went wrong', detail: e instanceof Error ? e.message : String(e) };
}

const summaryText = (s: RunSummary) =>
  Object.entries(s.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ') || 'nothing sent';

/**
 * Write-back: make a template, validate it (marks in the sheet, list here), post it with progress and
 * Cancel, confirm before production, record an audit trail. The logic lives in src/writeback; this
 * screen only wires it to the session and the workbook.
 */
export default function WritebackScreen({
  workbook,
  session,
  onActivity,
  onWorkbookChanged,
  workbookVersion,
}: ScreenProps) {
  const s = useStyles();
  const [records, setRecords] = useState<Record<string, TableRecord>>({});
  const [table, setTable] = useState('');
  const [flowId, setFlowId] = useState<FlowId>('incidents');
  const [concurrency, setConcurrency] = useState(4);
  const [audit, setAudit] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [confirm, setConfirm] = useState<PostPlan | null>(null);
  const cancel = useRef<AbortController | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([tableRecords(workbook), workbook.listTables()]).then(([recs, shapes]) => {
      if (!live) return;
      const present = new Set(shapes.map((t) => t.name));
      setRecords(Object.fromEntries(Object.entries(recs).filter(([name]) => present.has(name))));
    });
    return () => {
      live = false;
    };
  }, [workbook, workbookVersion]);

  const flow = flowById(flowId);
  const environment = session?.environment.name ?? '';
  const names = Object.keys(records);

  function chooseTable(name: string) {
    setTable(name);
    setChecked(null);
    const r = records[name];
    if (r) setFlowId(r.flow);
  }

  /** A table belongs to one flow: choosing another flow leaves the table list at "choose". */
  function chooseFlow(id: FlowId) {
    setFlowId(id);
    if (records[table] && records[table].flow !== id) chooseTable('');
  }

  async function step<T>(what: string, work: (session: Session) => Promise<T>): Promise<T | undefined> {
    if (!session) return undefined;
    setBusy(what);
    setNotice(null);
    try {
      return await work(session);
    } catch (e) {
      setNotice({ intent: 'error', message: failure(e, environment), testId: 'writeback-error' });
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  const newTemplate = () =>
    step('Creating the template…', async (sess) => {
      const shape = await createTemplate({ api: sess.client, workbook, flow, environment: sess.environment });
      setRecords((r) => ({
        ...r,
        [shape.name]: {
          flow: flow.id,
          environment: sess.environment.name,
          createdAt: new Date().toISOString(),
        },
      }));
      setTable(shape.name);
      setChecked(null);
      onWorkbookChanged();
      setNotice({
        intent: 'success',
        testId: 'template-done',
        message: {
          title: `Template ${shape.name} is ready`,
          detail: `Sheet ${shape.sheet}: one row per record, names as shown in the dropdowns, dates as date cells or yyyy-mm-dd. Then Validate.`,
        },
      });
    });

  /** Reads, checks and marks the table; the plan it returns is what Post runs. */
  async function check(sess: Session): Promise<PostPlan> {
    const plan = await preparePost({
      api: sess.client,
      workbook,
      table,
      flow,
      environment: sess.environment,
    });
    await markProblems(workbook, table, plan.validation.problems);
    const firstRow = firstBodyRow((await workbook.findTable(table))?.topLeft ?? 'A1');
    onWorkbookChanged();
    const errors = plan.validation.problems.filter((p) => p.severity === 'error');
    const errorRows = new Set(errors.map((p) => p.row)).size;
    setChecked({
      problems: plan.validation.problems,
      firstRow,
      errors: errorRows,
      warnings: plan.validation.problems.length - errors.length,
      toSend: plan.toSend,
      toCheck: plan.toCheck,
    });
    return plan;
  }

  const validate = () => step('Validating…', check);

  async function run(plan: PostPlan, sess: Session) {
    const controller = new AbortController();
    cancel.current = controller;
    setBusy('Posting…');
    setProgress({
      total: plan.toSend + plan.toCheck,
      finished: 0,
      counts: { sending: 0, created: 0, done: 0, failed: 0, 'not sent': 0, unknown: 0 },
    });
    try {
      const summary = await plan.run({
        confirm: plan.confirmation
          ? { environment: plan.confirmation.environment, rows: plan.confirmation.rows }
          : undefined,
        concurrency,
        signal: controller.signal,
        onProgress: setProgress,
      });
      if (audit) {
        await writeAudit(workbook, summary, sess.keyFingerprint);
      }
      const bad = summary.counts.failed + summary.counts.unknown;
      const { created, done, failed, unknown } = summary.counts;
      const left = plan.toSend + plan.toCheck - (created + done + failed + unknown);
      setChecked((c) => c && { ...c, toSend: left, toCheck: unknown });
      onActivity({
        at: new Date(),
        action: 'writeback',
        outcome: summary.cancelled ? 'cancelled' : bad > 0 || summary.stoppedBecause ? 'failed' : 'ok',
        environment: sess.environment.name,
        table,
        rows: summary.outcomes.length,
        message: `${flow.title}: ${summaryText(summary)}`,
      });
      setNotice({
        intent: summary.stoppedBecause ? 'error' : bad > 0 ? 'warning' : 'success',
        testId: 'post-done',
        message: {
          title: summary.cancelled ? `Cancelled: ${summaryText(summary)}` : `Posted: ${summaryText(summary)}`,
          detail: summary.stoppedBecause
            ? `Stopped: ${summary.stoppedBecause}`
            : `Each row's outcome is in the Result columns of ${table}. Rows marked unknown are checked in ${sess.environment.name} before they are ever sent again; Post again to finish.`,
        },
      });
    } catch (e) {
      setNotice({ intent: 'error', message: failure(e, sess.environment.name), testId: 'writeback-error' });
    } finally {
      cancel.current = null;
      setBusy(null);
      setProgress(null);
      onWorkbookChanged();
    }
  }

  async function post() {
    const plan = await step('Validating…', check);
    if (!plan || !session) return;
    if (plan.toSend + plan.toCheck === 0) {
      setNotice({
        intent: 'info',
        testId: 'post-nothing',
        message: {
          title: 'Nothing to post',
          detail:
            'Every valid row already has a result. Fix rows with errors, or clear Result to send a row again.',
        },
      });
      return;
    }
    if (plan.confirmation) setConfirm(plan);
    else await run(plan, session);
  }

  if (!session)
    return <Text>Connect first: write-back uses the environment's standing data and posts to it.</Text>;
  const posting = progress !== null;
  return (
    <div className={s.root}>
      <div className={s.bar}>
        <Field label="Flow">
          <Select
            value={flowId}
            onChange={(_, d) => chooseFlow(d.value as FlowId)}
            disabled={busy !== null}
            data-testid="wb-flow"
          >
            {FLOWS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
              </option>
            ))}
          </Select>
        </Field>
        <Button onClick={newTemplate} disabled={busy !== null} data-testid="wb-new-template">
          New template
        </Button>
      </div>
      <Field label="Table">
        <Select
          value={table}
          onChange={(_, d) => chooseTable(d.value)}
          disabled={busy !== null}
          data-testid="wb-table"
        >
          <option value="">
            {names.length ? 'Choose a table' : 'No write-back table yet: make a template'}
          </option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n} ({flowById(records[n]!.flow).title}, {records[n]!.environment})
            </option>
          ))}
        </Select>
      </Field>
      {table && records[table] && records[table].environment !== environment && (
        <ErrorBar
          intent="warning"
          testId="wb-env-warning"
          message={{
            title: `Filled for ${records[table].environment}`,
            detail: `You are connected to ${environment}. Posting will ask you to confirm.`,
          }}
        />
      )}
      {table && (
        <div className={s.bar}>
          <Button onClick={validate} disabled={busy !== null} data-testid="wb-validate">
            Validate
          </Button>
          <Button appearance="primary" onClick={post} disabled={busy !== null} data-testid="wb-post">
            Post{session.environment.production ? ` to ${environment}` : ''}
          </Button>
          <Field label="At once">
            <Input
              className={s.narrow}
              type="number"
              min={1}
              max={16}
              value={String(concurrency)}
              onChange={(_, d) => setConcurrency(Math.min(16, Math.max(1, Number(d.value) || 1)))}
              disabled={busy !== null}
            />
          </Field>
          <Checkbox
            label="Audit record"
            checked={audit}
            onChange={(_, d) => setAudit(Boolean(d.checked))}
            disabled={busy !== null}
          />
        </div>
      )}
      {busy && !posting && <Caption1 role="status">{busy}</Caption1>}
      {posting && progress && (
        <div role="status" data-testid="wb-progress">
          <ProgressBar
            thickness="large"
            value={progress.total ? progress.finished / progress.total : undefined}
          />
          <Caption1>
            {progress.finished} of {progress.total} rows · {progress.counts.created + progress.counts.done}{' '}
            done · {progress.counts.failed} failed · {progress.counts.unknown} unknown
          </Caption1>
          <div>
            <Button onClick={() => cancel.current?.abort()} data-testid="wb-cancel">
              Cancel
            </Button>
          </div>
        </div>
      )}
      {notice && <ErrorBar intent={notice.intent} testId={notice.testId} message={notice.message} />}
      {checked && (
        <section aria-label="Validation" data-testid="wb-validation">
          <div className={s.counts}>
            <Text weight="semibold" data-testid="wb-ready">
              {checked.toSend} row{checked.toSend === 1 ? '' : 's'} ready
            </Text>
            {checked.toCheck > 0 && <Text>{checked.toCheck} to check in the service first</Text>}
            <Text>{checked.errors} with errors</Text>
            <Text>{checked.warnings} warnings</Text>
          </div>
          <ProblemList problems={checked.problems} firstRow={checked.firstRow} />
        </section>
      )}
      {confirm?.confirmation && (
        <ConfirmDialog
          open
          environment={confirm.confirmation.environment}
          rows={confirm.confirmation.rows}
          message={confirm.confirmation.message}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const plan = confirm;
            setConfirm(null);
            void run(plan, session);
          }}
        />
      )}
    </div>
  );
}
