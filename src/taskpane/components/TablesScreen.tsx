import { Button, Caption1, Checkbox, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { EditReport } from '../../loading/load';
import { useEffect, useRef, useState } from 'react';
import type { Catalog } from '../../catalog';
import type { EnvironmentChoice } from '../connection/environments';
import type { UserMessage } from '../connection/messages';
import type { ScreenProps } from '../screen';
import { readTablesOrError, type LoadedTable } from '../tables/loaded';
import { refreshInWorkbook } from '../tables/ops';
import { formatBytes, type Progress } from '../tables/progress';
import { ErrorBar } from './ErrorBar';
import { datasetFor } from '../../register/offer';
import { counted } from '../../words/count';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowWrap: 'anywhere',
  },
  failed: { border: `${tokens.strokeWidthThick} solid ${tokens.colorPaletteRedBorder2}` },
  facts: { display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: tokens.spacingHorizontalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, fontSize: tokens.fontSizeBase200 },
  production: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
});

export interface Props extends ScreenProps {
  catalog: Catalog;
  /** The relay's environments: which of them is production. */
  environments: readonly EnvironmentChoice[];
}

type Status =
  | { kind: 'refreshing'; progress: Progress }
  | { kind: 'ok'; rows: number; changes?: string }
  | { kind: 'edited'; edits: EditReport[] }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: UserMessage; intact: boolean };

export function TablesScreen(props: Props) {
  const { workbook, session, workbookVersion, onActivity, onWorkbookChanged, catalog, environments } = props;
  const s = useStyles();
  const [loaded, setLoaded] = useState<LoadedTable[] | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<Record<string, Status>>({});
  const [highlight, setHighlight] = useState(false);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    let live = true;
    void readTablesOrError(workbook).then((read) => {
      if (!live) return;
      setReadError(read.ok ? null : read.message);
      if (read.ok) setLoaded(read.tables);
    });
    return () => {
      live = false;
    };
  }, [workbook, workbookVersion, attempt]);

  const busy = Object.values(status).some((st) => st.kind === 'refreshing');

  /** Refreshing from another environment than the table's would pass its data off as something else. */
  function blocker(b: LoadedTable): string | null {
    if (!session) return `Connect to ${b.environment} to refresh.`;
    if (session.environment.name !== b.environment) return `Loaded from ${b.environment}; connect to ${b.environment} to refresh it.`;
    return null;
  }

  async function refresh(list: readonly LoadedTable[], overwriteEdits = false) {
    if (!session) return;
    const controller = new AbortController();
    abort.current = controller;
    for (const b of list) {
      if (controller.signal.aborted || blocker(b)) continue;
      setStatus((st) => ({ ...st, [b.table]: { kind: 'refreshing', progress: { bytes: 0, rows: 0, cancellable: true } } }));
      const result = await refreshInWorkbook({
        session,
        workbook,
        table: b.table,
        dataset: b.dataset,
        overwriteEdits,
        highlightChanges: highlight,
        signal: controller.signal,
        onProgress: (progress) => setStatus((st) => ({ ...st, [b.table]: { kind: 'refreshing', progress } })),
      });
      onActivity(result.activity);
      const next: Status = result.ok
        ? { kind: 'ok', rows: result.rows, ...(result.changes ? { changes: result.changes } : {}) }
        : result.cancelled
          ? { kind: 'cancelled' }
          : result.edits
            ? { kind: 'edited', edits: result.edits }
            : { kind: 'failed', message: result.message, intact: result.tableState === 'intact' };
      setStatus((st) => ({ ...st, [b.table]: next }));
      onWorkbookChanged();
    }
    abort.current = null;
  }

  if (readError && !loaded) {
    return (
      <div className={s.root}>
        <ErrorBar testId="tables-read-error" message={{ title: 'The tables could not be read', detail: `${readError} Try again; if it keeps failing, reopen the add-in.` }} />
        <Button onClick={() => setAttempt((n) => n + 1)} data-testid="tables-retry">
          Try again
        </Button>
      </div>
    );
  }
  if (!loaded) return <Text>Reading the workbook…</Text>;
  const refreshable = loaded.filter((b) => !blocker(b));
  return (
    <div className={s.root}>
      <div className={s.bar}>
        <Button appearance="primary" disabled={busy || refreshable.length === 0} onClick={() => refresh(refreshable)} data-testid="refresh-all">
          Refresh all ({refreshable.length})
        </Button>
        <Checkbox label="Highlight changed cells" checked={highlight} onChange={(_, d) => setHighlight(d.checked === true)} data-testid="highlight-changes" />
        {busy && (
          <Button onClick={() => abort.current?.abort()} data-testid="cancel-refresh">
            Cancel
          </Button>
        )}
      </div>
      {loaded.length === 0 && <Text>No tables yet. Load a dataset from the Datasets tab.</Text>}
      <ul className={s.list} aria-label="Tables">
        {loaded.map((b) => {
          const st = status[b.table];
          const why = blocker(b);
          const title = datasetFor(catalog, b.dataset)?.title ?? b.dataset;
          const production = environments.find((e) => e.name === b.environment)?.production ?? false;
          return (
            <li key={b.table} className={`${s.card} ${st?.kind === 'failed' ? s.failed : ''}`} data-testid={`table-${b.table}`}>
              <Text weight="semibold">{b.table}</Text>
              <dl className={s.facts}>
                <dt className={s.term}>Dataset</dt>
                <dd className={s.value}>{title}</dd>
                <dt className={s.term}>Environment</dt>
                <dd className={`${s.value} ${production ? s.production : ''}`}>{production ? `${b.environment} (PRODUCTION)` : b.environment}</dd>
                <dt className={s.term}>Loaded</dt>
                <dd className={s.value}>{new Date(b.loadedAt).toLocaleString()}</dd>
                <dt className={s.term}>Rows</dt>
                <dd className={s.value} data-testid="rows">
                  {b.rows.toLocaleString()}
                </dd>
                <dt className={s.term}>Where</dt>
                <dd className={s.value}>{b.sheet}</dd>
                <dt className={s.term}>Source</dt>
                <dd className={s.value}>{b.source}</dd>
                {b.evidence && (
                  <>
                    <dt className={s.term}>Evidence</dt>
                    <dd className={`${s.value} ${b.evidence.kind === 'changed' ? s.production : ''}`} data-testid="evidence">
                      {b.evidence.text}
                    </dd>
                  </>
                )}
              </dl>
              {st?.kind === 'refreshing' && (
                <div role="status">
                  <ProgressBar thickness="large" value={st.progress.totalBytes ? st.progress.bytes / st.progress.totalBytes : undefined} />
                  <Caption1>
                    {formatBytes(st.progress.bytes)} · {st.progress.rows.toLocaleString()} rows
                  </Caption1>
                </div>
              )}
              {st?.kind === 'failed' && (
                <ErrorBar
                  testId="refresh-error"
                  message={{
                    ...st.message,
                    title: `Refresh failed: ${st.message.title}`,
                    // Said only when true: a refresh that stopped while writing may have mixed the rows.
                    detail: st.intact ? `The table still holds the data loaded ${new Date(b.loadedAt).toLocaleString()}. ${st.message.detail}` : st.message.detail,
                  }}
                />
              )}
              {st?.kind === 'ok' && (
                <Caption1 role="status" data-testid="refresh-result">
                  Refreshed: {counted(st.rows, 'row')}{st.changes ? ` (${st.changes})` : ''}.
                </Caption1>
              )}
              {st?.kind === 'edited' && <EditedCells edits={st.edits} busy={busy} onOverwrite={() => refresh([b], true)} onKeep={() => setStatus((all) => ({ ...all, [b.table]: { kind: 'cancelled' } }))} />}
              {st?.kind === 'cancelled' && <Caption1 role="status">Refresh cancelled: the table still holds its previous data.</Caption1>}
              {why ? (
                <Caption1>{why}</Caption1>
              ) : (
                <Button size="small" disabled={busy} onClick={() => refresh([b])} data-testid="refresh">
                  Refresh
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const SHOWN_EDITS = 10;
const shown = (v: unknown) => (v === undefined ? '?' : v === null || v === '' ? '(empty)' : String(v));

/**
 * The confirm before a refresh overwrites cells someone edited by hand since the load: each cell by its
 * address with what was loaded and what it holds now, then the choice. Nothing was changed yet.
 */
function EditedCells(props: { edits: readonly EditReport[]; busy: boolean; onOverwrite(): void; onKeep(): void }) {
  const { edits } = props;
  const unsure = edits.some((e) => !e.certain);
  return (
    <MessageBar intent="warning" layout="multiline" data-testid="edited-cells">
      <MessageBarBody>
        <MessageBarTitle>{edits.length ? `${edits.length.toLocaleString()} cell${edits.length === 1 ? ' was' : 's were'} edited by hand since the last load` : 'Rows were added or deleted by hand since the last load'}</MessageBarTitle>
        <ul>
          {edits.slice(0, SHOWN_EDITS).map((e) => (
            <li key={`${e.address}`}>
              {e.address} ({e.field}): {shown(e.old)} → {shown(e.now)}
            </li>
          ))}
        </ul>
        {edits.length > SHOWN_EDITS && <div>and {(edits.length - SHOWN_EDITS).toLocaleString()} more.</div>}
        {unsure && <div>? : the service also changed that record, so the loaded value cannot be told.</div>}
        <div>Refreshing overwrites them with the service&apos;s data. The table is unchanged so far.</div>
      </MessageBarBody>
      <MessageBarActions>
        <Button disabled={props.busy} onClick={props.onOverwrite} data-testid="overwrite-edits">
          Overwrite and refresh
        </Button>
        <Button disabled={props.busy} onClick={props.onKeep} data-testid="keep-edits">
          Keep my edits
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
