import { makeStyles, tokens } from '@fluentui/react-components';
import type { OperationMapping } from '../../writeback';

const useStyles = makeStyles({
  box: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
  summary: { cursor: 'pointer', color: tokens.colorNeutralForeground1 },
  op: { marginTop: tokens.spacingVerticalXS },
});

/**
 * Where each column of the flow goes in the environment's API file, in the file's words ("Name → title"),
 * one line per operation, collapsed until asked for: the admin's mapping as the user's columns see it.
 */
export function FlowMapping({ flowTitle, environment, mapping }: { flowTitle: string; environment: string; mapping: OperationMapping[] }) {
  const s = useStyles();
  if (!mapping.length) return null;
  return (
    <details className={s.box} data-testid="wb-mapping">
      <summary className={s.summary}>
        {flowTitle} in {environment}&apos;s API file: where each column goes
      </summary>
      {mapping.map((m) => (
        <div key={m.title} className={s.op} data-testid="wb-mapping-op">
          <strong>{m.title}</strong>: {m.file}.{' '}
          {[...m.columns, ...m.extras].map((c) => `${c.column} → ${c.file}`).join(' · ')}
          {m.unplaced.length > 0 && <> · Not in the file, no column: {m.unplaced.join(', ')}</>}
        </div>
      ))}
    </details>
  );
}
