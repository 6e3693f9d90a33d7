/**
 * Write-back templates (made by grc-sheets template) filled as a person fills them outside Excel: with
 * openpyxl (Debian's), by header, dates as real dates (a serial under the cell's date format, as Excel
 * stores what a user types), numbers as numbers, each table stretched over its rows. One Python run per
 * workbook, whatever the number of tables.
 */
import { openpyxl } from './outside-readers';

/** A typed cell: text, a number, a boolean, or a date ({date: 'YYYY-MM-DD'}). */
export type Typed = string | number | boolean | { date: string };

export interface TableRows {
  sheet: string;
  table: string;
  rows: Record<string, Typed>[];
}

export function fillTemplates(book: string, tables: TableRows[]): void {
  const missing = openpyxl<string[]>(
    book,
    `import datetime
wb = load_workbook(sys.argv[1])
missing = []
for spec in json.loads(${JSON.stringify(JSON.stringify(tables))}):
    ws = wb[spec['sheet']]
    t = ws.tables[spec['table']]
    first, _ = t.ref.split(':')
    col0 = ws[first].column
    row0 = ws[first].row
    heads = {ws.cell(row=row0, column=c).value: c for c in range(col0, col0 + len(t.tableColumns))}
    for i, row in enumerate(spec['rows']):
        for head, value in row.items():
            if head not in heads:
                missing.append(spec['table'] + ': ' + head)
                continue
            if isinstance(value, dict):
                value = datetime.date.fromisoformat(value['date'])
            ws.cell(row=row0 + 1 + i, column=heads[head], value=value)
    end = t.ref.split(':')[1].rstrip('0123456789')
    t.ref = first + ':' + end + str(row0 + max(len(spec['rows']), 1))
    t.autoFilter.ref = t.ref
wb.save(sys.argv[1])
print(json.dumps(missing))`,
  );
  if (missing.length) throw new Error(`no such template column: ${missing.join(', ')}`);
}
