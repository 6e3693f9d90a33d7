import { useEffect, useMemo, useRef, useState } from 'react';
import { cellAddress, firstBodyRow, parseCell } from '../../workbook/address';
import {
  bindEnvironment,
  createTemplate,
  FLOWS,
  flowAvailability,
  flowExamples,
  flowMapping,
  flowById,
  markProblems,
  preparePost,
  tableRecords,
  writeAudit,
  type ExampleRequest,
  type FlowId,
  type FormulaText,
  type ProblemGroup,
  type PostPlan,
  type Problem,
  type Progress,
  type TableRecord,
  problemCell,
  RESULT_COLUMNS,
} from '../../writeback';
import type { TableShape } from '../../workbook/port';
import type { UserMessage } from '../connection/messages';
import { failure } from './failure';
import type { ScreenProps, Session } from '../screen';
import { countsText, postBanner, postCounts, postOutcome } from './outcomeText';

export type Notice = { intent: 'error' | 'warning' | 'success' | 'info'; message: UserMessage; testId: string };

/** What the last validation found, as the validate panel shows it. */
export interface Checked {
  problems: Problem[];
  firstRow: number;
  errors: number;
  warnings: number;
  toSend: number;
  toCheck: number;
  /** Rows to post with text that begins like a formula: Post needs the user's choice for them. */
  formulaRows: number;
  /** Where the table sits, to select a problem's cell. */
  shape: Pick<TableShape, 'sheet' | 'topLeft' | 'columns'> | null;
}

/**
 * The write-back screen's state and actions: which table and flow, the last validation, a post in
 * progress and its cancel, the confirmation before production. The panels only show it.
 */
export function useWriteback({ workbook, session, onActivity, onWorkbookChanged, workbookVersion }: ScreenProps) {
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
  // Asked per run: how text that begins like a formula is sent; null until the user chooses.
  const [formulaText, setFormulaText] = useState<FormulaText | null>(null);
  const cancel = useRef<AbortController | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([tableRecords(workbook), workbook.listTables()]).then(([recs, shapes]) => {
      if (!live) return;
      const present = new Set(shapes.map((t) => t.name));
      setRecords(Object.fromEntries(Object.entries(recs).filter(([name]) => present.has(name))));
    }, (e: unknown) => {
      // An Excel error here must not leave the screen silently empty.
      const detail = `${e instanceof Error ? e.message : String(e)} Switch tabs to try again; if it keeps failing, reopen the add-in.`;
      if (live) setNotice({ intent: 'error', message: { title: 'The write-back tables could not be read', detail }, testId: 'writeback-error' });
    });
    return () => {
      live = false;
    };
  }, [workbook, workbookVersion]);

  const flow = flowById(flowId);
  const environment = session?.environment.name ?? '';
  // Signed in, the relay's policy says which flows the person may post here: no template for the others.
  const flowAllowed = session?.flowAllowed;
  const allowed = !flowAllowed || flowAllowed(flowId);
  const allowedFlows = flowAllowed ? FLOWS.filter((f) => flowAllowed(f.id)).length : FLOWS.length;
  useEffect(() => {
    if (!flowAllowed || flowAllowed(flowId)) return;
    const mine = FLOWS.find((f) => flowAllowed(f.id));
    if (mine) setFlowId(mine.id);
    // Only when the person (their policy) changes: a flow chosen since then stays chosen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flowAllowed]);
  // Whether the flow can post here (binding, assumed paths) and the datasets it lacks: said before a template.
  const availability = session ? flowAvailability(flow, session.environment) : null;
  const unavailable = availability?.post.kind === 'unavailable';
  // The flow in the environment's file's words, when a binding gives the file (the catalogue's own shapes need none).
  const mapping = useMemo(
    () => (session?.environment.binding && !unavailable ? flowMapping(flow, session.environment) : null),
    [flow, session?.environment, unavailable],
  );
  // The request a sample row sends here, made like the import report's from the sandbox's standing data,
  // which is loaded as a chunk of its own when the screen first needs it.
  const [examples, setExamples] = useState<ExampleRequest[]>([]);
  const environmentInfo = session?.environment;
  useEffect(() => {
    setExamples([]);
    if (!environmentInfo || unavailable) return;
    let live = true;
    import(/* webpackChunkName: "sample" */ '../../sandbox/data/sample').then(
      ({ sampleStanding }) => {
        if (live) setExamples(flowExamples(flow, bindEnvironment(environmentInfo), sampleStanding()));
      },
      // Without the chunk (a deployment that lost it) the screen works as before, without the example.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [flow, environmentInfo, unavailable]);

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

  /** `failed` titles the error bar when the step throws: what did not happen. */
  async function step<T>(
    what: string,
    failed: string,
    work: (session: Session) => Promise<T>,
  ): Promise<T | undefined> {
    if (!session) return undefined;
    setBusy(what);
    setNotice(null);
    try {
      return await work(session);
    } catch (e) {
      setNotice({ intent: 'error', message: failure(e, environment, failed, flow.title), testId: 'writeback-error' });
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  const newTemplate = () =>
    step('Creating the template…', 'The template was not made', async (sess) => {
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
    const shape = await workbook.findTable(table);
    const firstRow = firstBodyRow(shape?.topLeft ?? 'A1');
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
      formulaRows: plan.formulaRows,
      shape,
    });
    return plan;
  }

  const validate = () => step('Validating…', 'Validation stopped', check);

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
        formulaText: formulaText ?? undefined,
        signal: controller.signal,
        onProgress: setProgress,
      });
      if (audit) {
        await writeAudit(workbook, summary, sess.keyFingerprint, sess.actor);
      }
      const { created, done, failed, unknown } = summary.counts;
      const left = plan.toSend + plan.toCheck - (created + done + failed + unknown);
      // A row the post created or updated has nothing left to fix: its problems (a warning it was sent
      // with) leave the list and its cells lose their marks. Nothing left at all: the list goes, the
      // post's banner says what happened.
      const settled = new Set(summary.outcomes.filter((o) => o.status === 'created' || o.status === 'done').map((o) => o.row));
      const problems = plan.validation.problems.filter((p) => !settled.has(p.row));
      if (problems.length < plan.validation.problems.length) await markProblems(workbook, table, problems);
      const errors = problems.filter((p) => p.severity === 'error');
      setChecked((c) =>
        c && (left + unknown > 0 || problems.length > 0)
          ? {
              ...c,
              problems,
              errors: new Set(errors.map((p) => p.row)).size,
              warnings: problems.length - errors.length,
              toSend: left,
              toCheck: unknown,
              // The choice for formula-like text is asked again only while such rows are left to post.
              formulaRows: left + unknown > 0 ? c.formulaRows : 0,
            }
          : null,
      );
      onActivity({
        at: new Date(),
        action: 'writeback',
        outcome: postOutcome(summary),
        environment: sess.environment.name,
        table,
        rows: summary.outcomes.length,
        message: `${flow.title}: ${countsText(postCounts(summary.counts))}`,
      });
      setNotice({ ...postBanner(summary, table, sess.environment.name), testId: 'post-done' });
      await showResults(summary.outcomes);
    } catch (e) {
      setNotice({ intent: 'error', message: failure(e, sess.environment.name, 'Posting stopped', flow.title), testId: 'writeback-error' });
    } finally {
      cancel.current = null;
      setFormulaText(null);
      setBusy(null);
      setProgress(null);
      onWorkbookChanged();
    }
  }

  async function post() {
    const plan = await step('Validating…', 'Nothing was posted: validation stopped', check);
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
    if (plan.formulaRows > 0 && formulaText === null) {
      setNotice({
        intent: 'warning',
        testId: 'wb-formula-choice-needed',
        message: {
          title: 'Choose how to send text that begins with =, +, - or @',
          detail: `${plan.formulaRows} row${plan.formulaRows === 1 ? ' has' : 's have'} such text (marked amber). A spreadsheet that opens the service's data may run it as a formula. Choose "Send as typed" or "Add a leading '" above Post, then Post again.`,
        },
      });
      return;
    }
    if (plan.confirmation) setConfirm(plan);
    else await run(plan, session);
  }

  /**
   * After a post, the Result cell of the first row that needs a look (failed or unknown), else of the first
   * row sent, is selected: Excel scrolls to it, so the results right of the template's columns are in view.
   * A courtesy: a failure to select leaves the post's outcome as it is.
   */
  async function showResults(outcomes: readonly { row: number; status: string }[]) {
    const first = outcomes.find((o) => o.status === 'failed' || o.status === 'unknown') ?? outcomes[0];
    const shape = first && (await workbook.findTable(table).catch(() => null));
    if (!first || !shape) return;
    const column = shape.columns.findIndex((c) => c.trim().toLowerCase() === RESULT_COLUMNS[0].toLowerCase());
    if (column < 0) return;
    const origin = parseCell(shape.topLeft);
    await workbook.select(shape.sheet, cellAddress(origin.row + 1 + first.row, origin.col + column)).catch(() => undefined);
  }

  /** Selects a problem's cell in the workbook (Excel, or the preview grid, which follows the selection). */
  async function selectProblem(group: ProblemGroup) {
    const shape = checked?.shape;
    if (!shape) return;
    try {
      await workbook.select(shape.sheet, problemCell(group, shape));
    } catch (e) {
      setNotice({ intent: 'error', message: failure(e, environment, 'The cell could not be selected', flow.title), testId: 'writeback-error' });
    }
  }

  function confirmPost() {
    const plan = confirm;
    setConfirm(null);
    if (plan && session) void run(plan, session);
  }

  return {
    environment,
    flow,
    allowed,
    allowedFlows,
    // A validation found rows to send (or to check first): Post is then the step that leads.
    readyToPost: !!checked && checked.toSend + checked.toCheck > 0,
    availability,
    unavailable,
    mapping,
    examples,
    records,
    table,
    flowId,
    chooseTable,
    chooseFlow,
    newTemplate,
    concurrency,
    setConcurrency,
    audit,
    setAudit,
    busy,
    checked,
    notice,
    progress,
    cancelPost: () => cancel.current?.abort(),
    validate,
    selectProblem,
    post,
    confirm,
    confirmPost,
    dismissConfirm: () => setConfirm(null),
    formulaText,
    setFormulaText,
  };
}

export type Writeback = ReturnType<typeof useWriteback>;
