import { Caption1, Tab, TabList, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useState, useSyncExternalStore } from 'react';
import type { MemoryWorkbook } from '../../workbook/memory';
import { cellAddress, columnLetters } from '../../workbook/address';
import { gridOf, type GridCell } from './gridModel';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 },
  bar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  scroll: { flex: '1 1 auto', overflow: 'auto' },
  grid: { borderCollapse: 'collapse', fontSize: tokens.fontSizeBase200, fontFamily: tokens.fontFamilyBase },
  head: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
    fontWeight: tokens.fontWeightRegular,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingInline: tokens.spacingHorizontalXS,
  },
  rowHead: { position: 'sticky', left: 0, textAlign: 'end' },
  cell: {
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingInline: tokens.spacingHorizontalXS,
    verticalAlign: 'top',
    minWidth: '48px',
    maxWidth: '220px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    cursor: 'cell',
    color: tokens.colorNeutralForeground1,
  },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  header: { backgroundColor: tokens.colorBrandBackground2, fontWeight: tokens.fontWeightSemibold },
  table: { backgroundColor: tokens.colorNeutralBackground1 },
  raw: { marginInlineStart: tokens.spacingHorizontalXS, color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100 },
  selected: { outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px' },
  error: { backgroundColor: tokens.colorPaletteRedBackground2 },
  warning: { backgroundColor: tokens.colorPaletteYellowBackground2 },
  ok: { backgroundColor: tokens.colorPaletteGreenBackground2 },
});

export interface Props {
  workbook: MemoryWorkbook;
}

function cellTitle(address: string, c: GridCell): string {
  const parts = [`${address}: ${JSON.stringify(c.raw)}`];
  if (c.format) parts.push(`format ${c.format}`);
  if (c.note) parts.push(c.note);
  return parts.join(' · ');
}

/**
 * The preview's stand-in for Excel's grid: the in-memory workbook's sheets, each cell's raw value (a date
 * is a serial number) with what its number format shows, marks as fills. Clicking a cell selects it, as in
 * Excel, for "load at the selected cell".
 */
export function PreviewGrid({ workbook }: Props) {
  const s = useStyles();
  const snapshot = useSyncExternalStore(workbook.subscribe, workbook.snapshot);
  const visible = snapshot.sheets.filter((sh) => !sh.hidden);
  const [chosen, setChosen] = useState<string | null>(null);
  const sheet = visible.find((sh) => sh.name === chosen)?.name ?? snapshot.selection.sheet;
  const view = gridOf(snapshot, sheet);
  const rows = Math.max(view.rows + 2, 12);
  const columns = Math.max(view.columns + 1, 8);

  return (
    <div className={s.root} data-testid="preview-grid">
      <div className={s.bar}>
        <Caption1>Preview workbook (in memory)</Caption1>
        <TabList size="small" selectedValue={sheet} onTabSelect={(_, d) => setChosen(String(d.value))} aria-label="Sheets">
          {visible.map((sh) => (
            <Tab key={sh.name} value={sh.name} data-testid={`sheet-${sh.name}`}>
              {sh.name}
            </Tab>
          ))}
        </TabList>
        {view.hiddenRows > 0 && (
          <Caption1>
            {view.hiddenRows.toLocaleString()} more {view.hiddenRows === 1 ? 'row' : 'rows'} in memory, not drawn
          </Caption1>
        )}
      </div>
      <div className={s.scroll}>
        <table className={s.grid} aria-label={`Sheet ${sheet}`}>
          <thead>
            <tr>
              <th className={s.head} />
              {Array.from({ length: columns }, (_, c) => (
                <th key={c} className={s.head} scope="col">
                  {columnLetters(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: rows }, (_, r) => (
              <tr key={r}>
                <th className={mergeClasses(s.head, s.rowHead)} scope="row">
                  {r + 1}
                </th>
                {Array.from({ length: columns }, (_, c) => {
                  const address = cellAddress(r, c);
                  const cell = view.cells.get(`${r},${c}`);
                  const selected = snapshot.selection.sheet === sheet && snapshot.selection.address === address;
                  const showRaw = cell && typeof cell.raw === 'number' && cell.display !== String(cell.raw);
                  return (
                    <td
                      key={c}
                      className={mergeClasses(
                        s.cell,
                        cell?.table && s.table,
                        cell?.header && s.header,
                        typeof cell?.raw === 'number' && s.number,
                        cell?.mark === 'error' && s.error,
                        cell?.mark === 'warning' && s.warning,
                        cell?.mark === 'ok' && s.ok,
                        selected && s.selected,
                      )}
                      data-cell={address}
                      data-raw={cell ? JSON.stringify(cell.raw) : undefined}
                      title={cell ? cellTitle(address, cell) : undefined}
                      onClick={() => workbook.select(sheet, address)}
                    >
                      {cell?.display}
                      {showRaw && <span className={s.raw}>{String(cell.raw)}</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
