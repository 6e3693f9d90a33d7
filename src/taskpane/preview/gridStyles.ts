import { makeStyles, tokens } from '@fluentui/react-components';

/** The preview grid's look: Excel's gridlines, headers, fills for marks, the frozen header row. */

/**
 * Text cut at a box's right edge. Clipped, not hidden: a box with `overflow: hidden` can still be scrolled
 * (by a script, by the browser's find in page), which leaves a long text (a 64-digit hash) showing its end
 * cut from the left; `clip` never scrolls, so the text always shows from its start, as Excel draws it.
 * `hidden` is the fallback for a webview without `clip`.
 */
const CLIPPED = ['hidden', 'clip'];

export const useGridStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 },
  bar: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXS,
    paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXS,
    flexWrap: 'wrap',
  },
  title: { color: tokens.colorNeutralForeground2 },
  pager: { marginInlineStart: 'auto', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  caption: { color: tokens.colorNeutralForeground2, fontVariantNumeric: 'tabular-nums' },
  // The name box: the selected cell's address and value, also announced to screen readers.
  nameBox: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'baseline',
    minWidth: 0,
    paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXXS,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground1,
  },
  nameAddress: { fontWeight: tokens.fontWeightSemibold, minWidth: '4em', fontVariantNumeric: 'tabular-nums' },
  blank: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  nameValue: { overflow: CLIPPED, textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  // Stacked under the taskpane (a narrow window) the page scrolls, not the preview: the grid keeps a height
  // of its own so its column and row headers stay in sight while its cells scroll under them.
  // The keyboard's ring goes round the box the grid scrolls in: drawn on the table, wider than that box, it
  // showed as one stray black line at the table's edge.
  scroll: {
    flex: '1 1 auto',
    overflow: 'auto',
    '@media (max-width: 720px)': { maxHeight: '75vh' },
    ':has(> table:focus-visible)': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  // Separate borders: with collapsed ones, sticky header cells let the scrolled cells show through.
  grid: {
    borderCollapse: 'separate',
    borderSpacing: 0,
    fontSize: tokens.fontSizeBase200,
    fontFamily: tokens.fontFamilyBase,
    ':focus': { outline: 'none' },
  },
  // Stacked under a narrow taskpane, a sheet just shown (a load's, a template's) may be far below: this
  // takes the reader to it.
  head: {
    position: 'sticky',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightRegular,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    paddingInline: tokens.spacingHorizontalXS,
    whiteSpace: 'nowrap',
  },
  colHead: { top: 0, zIndex: 2, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  columnName: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorNeutralForeground1, maxWidth: '220px', overflow: CLIPPED, textOverflow: 'ellipsis' },
  rowHead: { left: 0, zIndex: 1, textAlign: 'end', fontVariantNumeric: 'tabular-nums', borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  corner: { top: 0, left: 0, zIndex: 3, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`, borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  // A frozen row (a loaded report's header) stays under the column letters while the cells scroll; `top` is
  // the letters' row height, measured.
  frozen: { position: 'sticky', zIndex: 1, boxShadow: `0 ${tokens.strokeWidthThin} 0 ${tokens.colorNeutralStroke1}` },
  frozenHead: { zIndex: 2 },
  hiddenColumn: { minWidth: '3px', width: '3px', maxWidth: '3px', padding: 0, overflow: 'hidden', fontSize: 0, backgroundColor: tokens.colorNeutralBackground3 },
  cell: {
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingInline: tokens.spacingHorizontalXS,
    verticalAlign: 'top',
    minWidth: '48px',
    maxWidth: '220px',
    overflow: CLIPPED,
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    cursor: 'cell',
    color: tokens.colorNeutralForeground1,
    // Keeps a cell reached by keyboard clear of the sticky column and row headers.
    scrollMarginTop: '28px',
    scrollMarginLeft: '56px',
  },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  header: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorNeutralForeground1, fontWeight: tokens.fontWeightSemibold },
  table: { backgroundColor: tokens.colorNeutralBackground1 },
  selected: { outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px' },
  error: { backgroundColor: tokens.colorPaletteRedBackground2 },
  warning: { backgroundColor: tokens.colorPaletteYellowBackground2 },
  ok: { backgroundColor: tokens.colorPaletteGreenBackground2 },
  editing: { padding: 0, overflow: 'visible' },
  inBlock: { backgroundColor: tokens.colorBrandBackground2Hover },
  editor: {
    boxSizing: 'border-box',
    width: '100%',
    minWidth: '120px',
    font: 'inherit',
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    border: 'none',
    outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    outlineOffset: '-2px',
    paddingInline: tokens.spacingHorizontalXS,
  },
  // The dropdown arrow on a cell with a validation list, as Excel shows it on the selected cell.
  arrow: {
    float: 'right',
    marginInlineStart: tokens.spacingHorizontalXXS,
    minWidth: 0,
    height: '16px',
    paddingInline: '2px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase100,
    lineHeight: '12px',
    cursor: 'pointer',
  },
  alert: { paddingInline: tokens.spacingHorizontalS, paddingBlock: tokens.spacingVerticalXXS, color: tokens.colorPaletteRedForeground1, backgroundColor: tokens.colorPaletteRedBackground1 },
});
