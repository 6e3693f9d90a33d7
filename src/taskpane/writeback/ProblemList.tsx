import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { describeGroup, groupProblems, type ProblemGroup, type Problem } from '../../writeback';

const useStyles = makeStyles({
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    maxHeight: '320px',
    overflowY: 'auto',
  },
  item: {
    borderLeft: `${tokens.strokeWidthThickest} solid`,
    overflowWrap: 'anywhere',
  },
  // The whole line selects the problem's cell: a button that reads as text.
  pick: {
    display: 'block',
    width: '100%',
    textAlign: 'start',
    font: 'inherit',
    color: 'inherit',
    background: 'none',
    border: 'none',
    cursor: 'pointer',
    padding: tokens.spacingVerticalXXS,
    paddingLeft: tokens.spacingHorizontalS,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  error: { borderLeftColor: tokens.colorPaletteRedBorder2 },
  warning: { borderLeftColor: tokens.colorPaletteYellowBorder2 },
  where: { fontWeight: tokens.fontWeightSemibold },
});

export interface Props {
  problems: readonly Problem[];
  /** Longer lists are cut here: the marks in the sheet show every one. */
  limit?: number;
  /** The sheet row of the table's first body row, so "Row 5" is the row the user sees in Excel. */
  firstRow: number;
  /** Selects the problem's cell in the workbook. */
  onSelect?(group: ProblemGroup): void;
}

/**
 * Each problem as "Row 5, Date detected: ... type it as 2025-04-03": errors first, the same warning on
 * many rows as one line ("Rows 5-9, Description (warning): ..."). Choosing a line selects its cell.
 */
export function ProblemList({ problems, limit = 200, firstRow, onSelect }: Props) {
  const s = useStyles();
  const groups = groupProblems(problems);
  const shown = groups.slice(0, limit);
  return (
    <>
      <ul className={s.list} aria-label="Problems" data-testid="problems">
        {shown.map((g, i) => {
          const text = describeGroup(g, firstRow);
          const colon = text.indexOf(': ');
          return (
            <li key={i} className={`${s.item} ${g.severity === 'error' ? s.error : s.warning}`} data-testid={`problem-${g.severity}`}>
              {/* data-hands-keyboard: the preview's grid takes the keyboard when this selects a cell, so typing goes in it. */}
              <button type="button" className={s.pick} onClick={() => onSelect?.(g)} title="Select this cell in the sheet" data-hands-keyboard>
                <span className={s.where}>{text.slice(0, colon)}</span>
                {text.slice(colon)}
              </button>
            </li>
          );
        })}
      </ul>
      {groups.length > shown.length && (
        <Caption1>… and {groups.length - shown.length} more, marked in the sheet.</Caption1>
      )}
    </>
  );
}
