import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { compareTables, plainCell, rowKeys, type FieldChange, type TableRows } from '../../src/loading/changes';
import { readBeforeRefresh } from '../../src/loading/refreshread';
import { editSuspects, findEdits, makeCellPrint, rowPrints } from '../../src/loading/tableprint';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { openFileWorkbook, writeEmptyWorkbook } from '../../src/workbook/file';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell, WorkbookPort } from '../../src/workbook/port';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';

/**
 * What a refresh reads before it writes, streamed (refreshread.ts), must say exactly what comparing the
 * two tables in memory says (compareTables), in the same order and with the same cap, whichever pass
 * finds the changed rows; the hand-edit check must name the same cells.
 */
const columns = ['Id', 'Name', 'Score', 'Note'];

async function tableOf(rows: Cell[][]) {
  const workbook = createMemoryWorkbook();
  const sheet = await workbook.addSheet('S');
  const shape = await workbook.createTable({ name: 't', sheet, anchor: 'A1', columns: columns.map((name) => ({ name, format: 'general' as const })) });
  await workbook.writeRows('t', 0, rows);
  return { workbook, table: { ...shape, rowCount: rows.length } };
}

// Old: ids 0..39 (id7 twice, id8 missing); new: the first 25 reversed (so the two id7 rows swap: both changed),
// 25..31 removed, one added, every 4th renamed and every 5th rescored.
const old: Cell[][] = Array.from({ length: 40 }, (_, i) => [`id${i === 8 ? 7 : i}`, `name ${i}`, i, i % 3 ? null : 'n']);
const incoming = {
  columns: ['Id', 'Name', 'Score', 'Extra'],
  rows: [...old.slice(0, 25).reverse(), ...old.slice(32)].map((r, k): Cell[] => [r[0]!, k % 4 === 0 ? `renamed ${k}` : r[1]!, k % 5 === 0 ? Number(r[2]) + 0.5 : r[2]!, 'x']).concat([['id99', 'new', 1, 'x']]),
};

describe('readBeforeRefresh', () => {
  it.each([
    ['kept from the first pass', undefined],
    ['read in a second pass (too many to keep)', 2],
  ])('lists the changes compareTables lists, %s', async (_, keep) => {
    const { workbook, table } = await tableOf(old);
    for (const limit of [Infinity, 7]) {
      const expected = compareTables({ columns, rows: old }, incoming, ['Id'], limit);
      const got = await readBeforeRefresh({ workbook, table, incoming, incomingPrints: rowPrints(incoming, incoming.columns, ['Id']), keyColumns: ['Id'], limit, ...(keep ? { keep } : {}) });
      expect(got.edits).toBeNull();
      expect(got.compared).toEqual(expected);
    }
    expect(compareTables({ columns, rows: old }, incoming, ['Id']).summary).toEqual({ added: 1, removed: 7, changed: 15, fields: 19 });
  });

  it('names a hand-edited cell with its loaded value, and a table that matches its print has none', async () => {
    const names = incoming.columns.filter((c) => columns.includes(c));
    const loaded: Cell[][] = old.map((r) => [...r]);
    const print = makeCellPrint(rowPrints({ columns, rows: loaded }, names, ['Id']), ['Id']);
    const edited = loaded.map((r) => [...r]);
    edited[11]![1] = 'typed over';
    const clean = await tableOf(loaded);
    const stored = { print, fields: names };
    const prints = rowPrints(incoming, incoming.columns, ['Id']);
    expect((await readBeforeRefresh({ ...clean, incoming, incomingPrints: prints, keyColumns: ['Id'], stored, limit: Infinity })).edits).toBeNull();
    const { workbook, table } = await tableOf(edited);
    const got = await readBeforeRefresh({ workbook, table, incoming, incomingPrints: prints, keyColumns: ['Id'], stored, limit: Infinity });
    expect(got.edits?.cells).toEqual([{ row: 11, key: 'id11', field: 'Name', old: 'name 11', now: 'typed over', certain: true }]);
  });
});

/**
 * readBeforeRefresh reads the table in two streamed passes; what it finds must be what reading the whole
 * table and comparing it in memory finds. The reference here is the comparison as it was defined before
 * the streamed read (every new row against the old row with its key, field by field), and the hand-edit
 * check on the whole table. Tables are random but seeded: repeated and empty keys, keys typed as numbered
 * ones ("k1 #2"), keys by position, a user's column, columns in another order than the binding's, fields
 * new and gone, a stored print keyed otherwise, rows edited, added and deleted by hand, empty rows (a saved
 * file does not write them), every change-list limit, changed rows kept from the first pass or read in a
 * second. Each host reads the same tables: the memory workbook, the Excel adapter in windows of a few rows
 * (`wanted` skips between them), the saved file.
 */
function reference(before: TableRows, after: TableRows, keyColumns: readonly string[], limit: number) {
  const fields = after.columns.filter((c) => before.columns.includes(c));
  const oldKeys = rowKeys(before, keyColumns);
  const newKeys = rowKeys(after, keyColumns);
  const oldByKey = new Map(oldKeys.map((k, o) => [k, o]));
  const summary = { added: 0, removed: 0, changed: 0, fields: 0 };
  const changes: FieldChange[] = [];
  const push = (c: FieldChange) => changes.length < limit && changes.push(c);
  const matched = new Set<number>();
  newKeys.forEach((key, r) => {
    const o = oldByKey.get(key);
    if (o === undefined) {
      summary.added++;
      push({ kind: 'added', key, row: r, field: '', old: null, new: null });
      return;
    }
    matched.add(o);
    let any = false;
    for (const field of fields) {
      const a = plainCell(before.rows[o]![before.columns.indexOf(field)]);
      const b = plainCell(after.rows[r]![after.columns.indexOf(field)]);
      if (a === b) continue;
      any = true;
      summary.fields++;
      push({ kind: 'changed', key, row: r, field, old: a, new: b });
    }
    if (any) summary.changed++;
  });
  oldKeys.forEach((key, o) => {
    if (matched.has(o)) return;
    summary.removed++;
    push({ kind: 'removed', key, row: o, field: '', old: null, new: null });
  });
  return { summary, changes, truncated: changes.length < summary.added + summary.removed + summary.fields };
}

function random(seed: number) {
  let s = seed;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(next() * a.length)]!;
  const shuffle = <T>(a: T[]): T[] => {
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };
  return { next, pick, shuffle };
}

const VALUES: Cell[] = [null, '', 'x', 'y', "'=1+1", '=1+1', 1, 2, 0.1 + 0.2, 0.3, true, false, 'a text longer than twelve'];
const KEYS: Cell[] = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k1 #2', '', null, 7];
const FIELDS = ['Id', 'Id2', 'A', 'B', 'C', 'D'];

/** One refresh's situation: the last load (its columns, keys and print), the table now, what comes in. */
function situation(seed: number, maxRows: number) {
  const { next, pick, shuffle } = random(seed);
  const keyColumns = pick([['Id'], ['Id', 'Id2'], []]);
  const loadedColumns = shuffle(FIELDS.filter((c) => keyColumns.includes(c) || next() < 0.7));
  const printKeys = next() < 0.8 ? keyColumns : pick([['Id'], [], ['Id2']]).filter((k) => loadedColumns.includes(k));
  const row = (cols: readonly string[]) => cols.map((c) => (c.startsWith('Id') ? pick(KEYS) : pick(VALUES)));
  const loaded = Array.from({ length: Math.floor(next() * maxRows) }, () => row(loadedColumns));
  const print = makeCellPrint(rowPrints({ columns: loadedColumns, rows: loaded }, loadedColumns, printKeys), printKeys);

  let columns = [...loadedColumns];
  if (next() < 0.4) columns.splice(Math.floor(next() * (columns.length + 1)), 0, 'User');
  if (next() < 0.2) columns = columns.filter((c) => c !== pick(loadedColumns));
  if (!columns.length) columns = ['User'];
  const rows = loaded.map((r) => columns.map((c) => (c === 'User' ? pick(VALUES) : (r[loadedColumns.indexOf(c)] ?? null))));
  for (const r of rows) {
    const c = Math.floor(next() * columns.length);
    if (next() < 0.1) r[c] = columns[c]!.startsWith('Id') ? pick(KEYS) : pick(VALUES);
    if (next() < 0.15) r.fill(null);
  }
  if (next() < 0.1) rows.splice(Math.floor(next() * (rows.length + 1)), 0, columns.map(() => pick(VALUES)));
  if (next() < 0.1 && rows.length) rows.splice(Math.floor(next() * rows.length), 1);

  const inColumns = [...new Set([...keyColumns, ...shuffle(FIELDS.filter((c) => !c.startsWith('Id') && next() < 0.8)), ...(next() < 0.3 ? ['New'] : [])])];
  const inRows: Cell[][] = [];
  for (const r of rows) if (next() >= 0.15) inRows.push(inColumns.map((c) => (columns.includes(c) && next() >= 0.15 ? r[columns.indexOf(c)]! : c.startsWith('Id') ? pick(KEYS) : pick(VALUES))));
  for (let i = Math.floor(next() * 5); i > 0; i--) inRows.splice(Math.floor(next() * (inRows.length + 1)), 0, row(inColumns));
  if (next() < 0.3) shuffle(inRows);
  return {
    table: { columns, rows },
    incoming: { columns: inColumns, rows: inRows },
    keyColumns,
    stored: next() < 0.8 && loadedColumns.length ? { print, fields: loadedColumns } : undefined,
    limit: pick([Infinity, 0, 1, 3, 10]),
    // Changed rows kept from the first pass: all of them, or too few (a second pass reads them).
    keep: pick([undefined, 0, 2]),
  };
}

type Host = (columns: string[], rows: Cell[][]) => Promise<WorkbookPort>;

const dir = mkdtempSync(join(tmpdir(), 'grc-refreshread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const hosts: [string, number, number, Host][] = [
  [
    'the memory workbook',
    150,
    60,
    async (columns, rows) => {
      const wb = createMemoryWorkbook();
      await wb.addSheet('S');
      await wb.createTable({ name: 'T', sheet: 'S', anchor: 'B3', columns: columns.map((name) => ({ name, format: 'general' })) });
      if (rows.length) await wb.writeRows('T', 0, rows);
      return wb;
    },
  ],
  [
    'the Excel adapter, reading in windows of a few rows',
    50,
    400,
    async (columns, rows) => {
      const xl = new FakeExcel();
      const wb = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC', maxBytes: 3_000 });
      await wb.addSheet('S');
      await wb.createTable({ name: 'T', sheet: 'S', anchor: 'B3', columns: columns.map((name) => ({ name, format: 'general' })) });
      if (rows.length) await wb.writeRows('T', 0, rows);
      return wb;
    },
  ],
  [
    'the saved file (empty rows not written)',
    60,
    60,
    async (columns, rows) => {
      const path = join(dir, `t${files++}.xlsx`);
      const saved = `${path}.saved.xlsx`;
      writeEmptyWorkbook(path);
      const wb = openFileWorkbook(path);
      await wb.addSheet('S');
      await wb.createTable({ name: 'T', sheet: 'S', anchor: 'B3', columns: columns.map((name) => ({ name, format: 'general' })) });
      if (rows.length) await wb.writeRows('T', 0, rows);
      wb.saveTo(saved);
      wb.close();
      // Excel and openpyxl write no element for an empty row; this adapter writes <row r="5"></row>.
      const parts = unzipSync(readFileSync(saved));
      for (const name of Object.keys(parts)) if (name.startsWith('xl/worksheets/')) parts[name] = strToU8(strFromU8(parts[name]!).replace(/<row r="\d+"><\/row>/g, ''));
      writeFileSync(saved, zipSync(parts));
      return openFileWorkbook(saved);
    },
  ],
];

describe.each(hosts)('readBeforeRefresh on %s', (_, trials, maxRows, host) => {
  it(`finds the changes and hand edits that reading the whole table finds (${trials} seeded tables)`, async () => {
    for (let seed = 1; seed <= trials; seed++) {
      const s = situation(seed, maxRows);
      const workbook = await host(s.table.columns, s.table.rows);
      const table = (await workbook.findTable('T'))!;
      expect([seed, table.rowCount]).toEqual([seed, s.table.rows.length]);
      const found = await readBeforeRefresh({
        workbook,
        table,
        incoming: s.incoming,
        incomingPrints: rowPrints(s.incoming, s.incoming.columns, s.keyColumns),
        keyColumns: s.keyColumns,
        ...(s.stored ? { stored: s.stored } : {}),
        limit: s.limit,
        ...(s.keep === undefined ? {} : { keep: s.keep }),
      });
      (workbook as { close?: () => void }).close?.();

      let edits: ReturnType<typeof findEdits> | null = null;
      if (s.stored) {
        const { print, fields } = s.stored;
        const now = rowPrints(s.table, fields, print.keys);
        const suspects = editSuspects(print, now);
        const cellsOf = (r: number) => fields.map((f) => (s.table.columns.includes(f) ? s.table.rows[r]![s.table.columns.indexOf(f)]! : null));
        if (suspects) edits = findEdits(print, now, suspects, cellsOf, s.incoming, fields);
      }
      expect({ seed, ...found }).toEqual({ seed, compared: reference(s.table, s.incoming, s.keyColumns, s.limit), edits });
    }
  }, 60_000);
});

describe('readBeforeRefresh while the user works in the table', () => {
  const heads = ['Id', 'Name', 'Score'];
  const rows: Cell[][] = ['a', 'b', 'c', 'd', 'e'].map((k, i) => [k, `Name ${k}`, i]);

  /** The memory workbook, whose second read finds the rows as a user's sort (Z to A) or delete between the reads left them. */
  async function changedBetweenReads(change: 'sort' | 'delete'): Promise<WorkbookPort> {
    const wb = createMemoryWorkbook();
    await wb.addSheet('S');
    await wb.createTable({ name: 'T', sheet: 'S', anchor: 'A1', columns: heads.map((name) => ({ name, format: 'general' })) });
    await wb.writeRows('T', 0, rows);
    let reads = 0;
    return {
      ...wb,
      scanRows: async (name, names, visit, wanted) => {
        if (++reads === 2) await (change === 'sort' ? wb.writeRows('T', 0, [...rows].reverse()) : wb.setRowCount('T', 1));
        return wb.scanRows(name, names, visit, wanted);
      },
    };
  }

  // keep 0: the changed rows are read in the second pass (as when more than KEPT_ROWS changed).
  it.each([
    ['sorted', 'a record changed at the source', 'sort', false, 0],
    ['sorted', 'a cell edited by hand', 'sort', true, undefined],
    ['deleted', 'a record changed at the source', 'delete', false, 0],
  ] as const)('refuses, rather than compare other records, when rows are %s between the two reads (%s)', async (_, __, change, edited, keep) => {
    const workbook = await changedBetweenReads(change);
    const loaded = edited ? rows.map((r, i) => (i === 1 ? [r[0]!, 'Name as loaded', r[2]!] : r)) : rows;
    const print = makeCellPrint(rowPrints({ columns: heads, rows: loaded }, heads, ['Id']), ['Id']);
    const coming = { columns: heads, rows: edited ? loaded : rows.map((r, i) => (i === 1 ? [r[0]!, 'Renamed', r[2]!] : r)) };
    const read = readBeforeRefresh({
      workbook,
      table: (await workbook.findTable('T'))!,
      incoming: coming,
      incomingPrints: rowPrints(coming, heads, ['Id']),
      keyColumns: ['Id'],
      stored: { print, fields: heads },
      limit: Infinity,
      ...(keep === undefined ? {} : { keep }),
    });
    await expect(read).rejects.toThrow(/^Table T changed while it was being read \(rows sorted, edited, added or deleted in the meantime\).*Nothing was changed: refresh again\.$/);
  });

  it('reads the table once when nothing was edited by hand and few rows changed, so a sort after it changes nothing found', async () => {
    const workbook = await changedBetweenReads('sort');
    const print = makeCellPrint(rowPrints({ columns: heads, rows }, heads, ['Id']), ['Id']);
    const coming = { columns: heads, rows: rows.map((r, i) => (i === 1 ? [r[0]!, 'Renamed', r[2]!] : r)) };
    const read = await readBeforeRefresh({ workbook, table: (await workbook.findTable('T'))!, incoming: coming, incomingPrints: rowPrints(coming, heads, ['Id']), keyColumns: ['Id'], stored: { print, fields: heads }, limit: Infinity });
    expect(read).toEqual({ edits: null, compared: { summary: { added: 0, removed: 0, changed: 1, fields: 1 }, changes: [{ kind: 'changed', key: 'b', row: 1, field: 'Name', old: 'Name b', new: 'Renamed' }], truncated: false } });
  });
});
