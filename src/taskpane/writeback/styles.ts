import { makeStyles, tokens } from '@fluentui/react-components';

/** Layout shared by the write-back panels. */
export const usePanelStyles = makeStyles({
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'end' },
  narrow: { width: '96px' },
  counts: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  // A select as wide as its longest choice ("GrcIncidents_2 (Incidents, sandbox-acc)") stays inside a 350 px pane.
  fit: { maxWidth: '100%', minWidth: 0 },
});
