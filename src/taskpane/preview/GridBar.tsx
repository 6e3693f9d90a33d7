import { Button, Caption1, Tab, TabList } from '@fluentui/react-components';
import { PAGE_ROWS, pageCaption, type GridView } from './gridModel';
import { useGridStyles } from './gridStyles';

/** Above the grid: the sheets as tabs, and which rows are shown with the pages' buttons. */
export function GridBar({ sheet, sheets, onSheet, view, onPage }: { sheet: string; sheets: readonly string[]; onSheet(name: string): void; view: GridView; onPage(top: number): void }) {
  const s = useGridStyles();
  const lastPage = view.top + PAGE_ROWS >= view.usedRows;
  return (
    <div className={s.bar}>
      <Caption1 className={s.title}>Preview workbook (in memory)</Caption1>
      <TabList size="small" selectedValue={sheet} onTabSelect={(_, d) => onSheet(String(d.value))} aria-label="Sheets">
        {sheets.map((name) => (
          <Tab key={name} value={name} data-testid={`sheet-${name}`}>
            {name}
          </Tab>
        ))}
      </TabList>
      <div className={s.pager} role="group" aria-label="Rows shown">
        <Caption1 className={s.caption} data-testid="grid-rows">
          {pageCaption(view)}
        </Caption1>
        {view.usedRows > PAGE_ROWS && (
          <>
            <Button size="small" appearance="subtle" disabled={view.top === 0} onClick={() => onPage(0)}>
              First
            </Button>
            <Button size="small" appearance="subtle" disabled={view.top === 0} onClick={() => onPage(view.top - PAGE_ROWS)}>
              Previous
            </Button>
            <Button size="small" appearance="subtle" disabled={lastPage} onClick={() => onPage(view.top + PAGE_ROWS)} data-testid="grid-next">
              Next
            </Button>
            <Button size="small" appearance="subtle" disabled={lastPage} onClick={() => onPage(view.usedRows - 1)}>
              Last
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
