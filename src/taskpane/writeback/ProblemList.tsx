import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { problemPlace, type Problem } from '../../writeback';

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
    padding: tokens.spacingVerticalXXS,
    borderLeft: `${tokens.strokeWidthThickest} solid`,
    paddingLeft: tokens.spacingHorizontalS,
    overflowWrap: 'anywhere',
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
}

/** Each problem as "Row 5, Date detected: ... type it as 2025-04-03": where, what and how to fix. */
export function ProblemList({ problems, limit = 200, firstRow }: Props) {
  const s = useStyles();
  const shown = problems.slice(0, limit);
  return (
    <>
      <ul className={s.list} aria-label="Problems" data-testid="problems">
        {shown.map((p, i) => (
          <li
            key={i}
            className={`${s.item} ${p.severity === 'error' ? s.error : s.warning}`}
            data-testid={`problem-${p.severity}`}
          >
            <span className={s.where}>{problemPlace(p, firstRow)}</span>
            {p.severity === 'warning' ? ' (warning)' : ''}: {p.message}
          </li>
        ))}
      </ul>
      {problems.length > shown.length && (
        <Caption1>… and {problems.length - shown.length} more, marked in the sheet.</Caption1>
      )}
    </>
  );
}
