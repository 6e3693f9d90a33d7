import { makeStyles, tokens } from '@fluentui/react-components';
import { Fragment } from 'react';
import { formatWire } from '../../catalog';
import type { ExampleRequest } from '../../writeback';

const useStyles = makeStyles({
  box: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
  summary: { cursor: 'pointer', color: tokens.colorNeutralForeground1 },
  op: { marginTop: tokens.spacingVerticalS },
  // The request as sent: monospace, wrapped inside the pane (a GUID or a long URL breaks anywhere) rather
  // than scrolled sideways, which a 350 px taskpane would make unreadable.
  request: {
    margin: 0,
    marginTop: tokens.spacingVerticalXXS,
    padding: tokens.spacingHorizontalS,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase100,
    lineHeight: tokens.lineHeightBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    maxHeight: '320px',
    overflowY: 'auto',
  },
  // One line of the request: a line too long for the pane continues two characters in from where it
  // starts, so a wrapped GUID still reads as part of its property. The line's own spaces stay in its text.
  line: { display: 'inline-block', width: '100%', boxSizing: 'border-box' },
  refused: { color: tokens.colorPaletteRedForeground1 },
});

/** The request's lines, each wrapping under itself (see `line`); its text is exactly formatWire's. */
function RequestLines({ lines, className }: { lines: readonly string[]; className: string }) {
  return lines.map((l, i) => {
    const hang = `${l.length - l.trimStart().length + 2}ch`;
    return (
      <Fragment key={i}>
        <span className={className} style={{ paddingLeft: hang, textIndent: `-${hang}` }}>
          {l}
        </span>
        {i < lines.length - 1 ? '\n' : ''}
      </Fragment>
    );
  });
}

export interface Props {
  flowTitle: string;
  environment: string;
  examples: readonly ExampleRequest[];
}

/**
 * What one row of the flow sends on this environment: the request a sample row makes (writeback
 * flowExamples, the same as the import report's), method, path, content type and body as Post sends them.
 * Collapsed until asked for, like the mapping above it.
 */
export function FlowExample({ flowTitle, environment, examples }: Props) {
  const s = useStyles();
  if (!examples.length) return null;
  return (
    <details className={s.box} data-testid="wb-example">
      <summary className={s.summary}>
        {flowTitle} on {environment}: an example request
      </summary>
      <div>A sample row typed from the practice sandbox&apos;s names, sent as Post sends it.</div>
      {examples.map((x) => (
        <div key={`${x.operation} ${x.variant ?? ''}`} className={s.op} data-testid="wb-example-op">
          <strong>{x.title}</strong>
          {x.variant ? ` (${x.variant})` : ''}: {x.file}
          {x.toMade ? ', to the record the row creates (a sample GUID here)' : ''}
          {x.wire ? (
            <pre className={s.request} data-testid="wb-example-request">
              <RequestLines lines={formatWire(x.wire)} className={s.line} />
            </pre>
          ) : (
            <div className={s.refused}>The sample row is refused here: {x.problems?.join('; ')}</div>
          )}
        </div>
      ))}
    </details>
  );
}
