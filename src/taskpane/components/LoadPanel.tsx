import { Button, Caption1, Field, Input, ProgressBar, Radio, RadioGroup, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useMemo, useRef, useState } from 'react';
import type { Dataset } from '../../catalog';
import { tableNameFor } from '../../loading/load';
import { needsGuid } from '../datasets/groups';
import type { UserMessage } from '../connection/messages';
import type { ScreenProps } from '../screen';
import { formatBytes, type Progress } from '../tables/progress';
import { loadIntoWorkbook, type LoadTarget } from '../tables/ops';
import { ErrorBar } from './ErrorBar';
import { ColumnChooser } from './ColumnChooser';
import { registerOf } from '../../register/registers';
import { chosenFields, columnItems, type ColumnItem } from '../datasets/columns';
import { counted } from '../../words/count';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

export interface Props extends ScreenProps {
  dataset: Dataset;
  onClose(): void;
  /** While a load runs the screen keeps the user from switching datasets under it. */
  onBusyChange(busy: boolean): void;
}

type State =
  | { phase: 'idle' }
  | { phase: 'loading'; progress: Progress }
  | { phase: 'done'; table: string; rows: number }
  | { phase: 'failed'; message: UserMessage; cancelled: boolean; askOverwrite?: boolean };

export function LoadPanel({ dataset, session, workbook, onActivity, onWorkbookChanged, onClose, onBusyChange }: Props) {
  const s = useStyles();
  const [target, setTarget] = useState<LoadTarget['kind']>('new-sheet');
  const [guid, setGuid] = useState('');
  const [state, setState] = useState<State>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const guidNeeded = needsGuid(dataset);
  const initialColumns = useMemo(() => columnItems(dataset.record), [dataset]);
  const [columns, setColumns] = useState<ColumnItem[]>(initialColumns);

  async function load(overwrite = false) {
    if (!session) return;
    const controller = new AbortController();
    abort.current = controller;
    onBusyChange(true);
    setState({ phase: 'loading', progress: { bytes: 0, rows: 0, cancellable: true } });
    const result = await loadIntoWorkbook({
      session,
      workbook,
      dataset,
      target: { kind: target },
      params: guidNeeded ? { guid: guid.trim() } : undefined,
      overwrite,
      choice: chosenFields(columns, initialColumns),
      signal: controller.signal,
      onProgress: (progress) => setState({ phase: 'loading', progress }),
    });
    abort.current = null;
    onBusyChange(false);
    onWorkbookChanged();
    onActivity(result.activity);
    setState(
      result.ok
        ? { phase: 'done', table: result.table, rows: result.rows }
        : { phase: 'failed', message: result.message, cancelled: result.cancelled, askOverwrite: result.askOverwrite },
    );
  }

  const loading = state.phase === 'loading';
  return (
    <section className={s.panel} aria-label={`Load ${dataset.title}`} data-testid="load-panel">
      <Text weight="semibold">Load “{dataset.title}”</Text>
      <Caption1>
        As table <code>{tableNameFor(dataset.id)}</code>
        {session ? ` from ${session.environment.name}` : ''}
      </Caption1>
      {!session && <ErrorBar intent="warning" message={{ title: 'Not connected', detail: 'Test a connection on the Connect tab first.' }} />}
      <RadioGroup value={target} onChange={(_, d) => setTarget(d.value as LoadTarget['kind'])} layout="horizontal" aria-label="Where">
        <Radio value="new-sheet" label="New sheet" />
        <Radio value="selection" label="At the selected cell" />
      </RadioGroup>
      <ColumnChooser items={columns} initial={initialColumns} onChange={setColumns} disabled={loading} {...(registerOf(dataset.id) ? { more: 'custom fields' } : {})} />
      {guidNeeded && (
        <Field label="GUID of the parent record" required hint="This dataset belongs to one record, e.g. one form or one test plan.">
          <Input value={guid} onChange={(_, d) => setGuid(d.value)} />
        </Field>
      )}
      {loading && (
        <div role="status" aria-live="polite">
          <ProgressBar
            value={state.progress.totalBytes ? state.progress.bytes / state.progress.totalBytes : undefined}
            thickness="large"
            data-testid="load-progress"
          />
          <Caption1>
            {formatBytes(state.progress.bytes)}
            {state.progress.totalBytes ? ` of ${formatBytes(state.progress.totalBytes)}` : ''} · {state.progress.rows.toLocaleString()} rows
          </Caption1>
        </div>
      )}
      <div className={s.actions}>
        {loading ? (
          <Button key="cancel" onClick={() => abort.current?.abort()} disabled={!state.progress.cancellable} data-testid="cancel-load">
            Cancel
          </Button>
        ) : (
          <Button key="load" appearance="primary" disabled={!session || (guidNeeded && !guid.trim())} onClick={() => load()} data-testid="load">
            Load
          </Button>
        )}
        {!loading && <Button onClick={onClose}>Close</Button>}
      </div>
      {state.phase === 'done' && (
        <ErrorBar
          intent="success"
          testId="load-done"
          message={{ title: `Loaded ${counted(state.rows, 'row')}`, detail: `Table ${state.table} is ready. Refresh it from the Tables tab.` }}
        />
      )}
      {state.phase === 'failed' && (
        <ErrorBar message={state.message} intent={state.cancelled || state.askOverwrite ? 'warning' : 'error'} testId="load-error" />
      )}
      {state.phase === 'failed' && state.askOverwrite && (
        // Asked, never assumed: the cells below the selection are the user's data.
        <div className={s.actions}>
          <Button appearance="primary" onClick={() => load(true)} data-testid="load-overwrite">
            Overwrite
          </Button>
          <Button onClick={() => setState({ phase: 'idle' })}>Keep my cells</Button>
        </div>
      )}
    </section>
  );
}
