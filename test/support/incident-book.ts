/**
 * An incidents template as a person fills it outside Excel, and its results read back: both with openpyxl
 * (Debian's), so what `grc-sheets post` is given and what it wrote are seen by a reader nobody here wrote.
 */
import { openpyxl } from './outside-readers';

/**
 * Types rows into the incidents template `table` of `book` (made by grc-sheets template): each
 * [name, organization or null for the dropdown list's first], and stretches the table over them.
 */
export function fillIncidents(book: string, table: string, rows: [string, string | null][]): void {
  openpyxl(
    book,
    `wb = load_workbook(sys.argv[1])
ws = wb['Incidents']
t = ws.tables['${table}']
heads = [c.value for c in ws[1]]
org = heads.index('Reporting organization') + 1
letter = ws.cell(row=2, column=org).column_letter
dv = [d for d in ws.data_validations.dataValidation if letter + '2' in str(d.sqref)][0]
lists, cell = dv.formula1.split('!')
first = wb[lists.strip("'")][cell.split(':')[0].replace('$', '')].value
rows = json.loads(${JSON.stringify(JSON.stringify(rows))})
for i, (n, o) in enumerate(rows):
    ws.cell(row=2 + i, column=1, value=n)
    ws.cell(row=2 + i, column=org, value=o if o is not None else first)
t.ref = t.ref.rstrip('0123456789') + str(1 + max(len(rows), 1))
t.autoFilter.ref = t.ref
wb.save(sys.argv[1])
print('null')`,
  );
}

/** The rows of the Incidents sheet by header, as text (null for an empty cell). */
export const incidentResults = (book: string) =>
  openpyxl<Record<string, unknown>[]>(
    book,
    `wb = load_workbook(sys.argv[1])
ws = wb['Incidents']
heads = [c.value for c in ws[1]]
print(json.dumps([{h: (str(c.value) if c.value is not None else None) for h, c in zip(heads, r)} for r in ws.iter_rows(min_row=2)]))`,
  );
