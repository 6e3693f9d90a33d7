/**
 * A stateful stand-in for the part of Excel's object model the adapter uses, with Office.js's batching:
 * every property set, method call and load is queued and applied in order at `context.sync()`, and a
 * loaded property can be read only after the sync (reading it earlier throws, as PropertyNotLoaded does).
 * It counts the bytes each sync would carry both ways (request: a fixed cost per queued operation plus the
 * JSON of the values, formats, formulas, fills, notes and settings written; response: the JSON of what was
 * loaded), which office-addin-mock does not model, and fails a sync over Excel on the web's 5 MB limit with
 * RequestPayloadSizeLimitExceeded / ResponsePayloadSizeLimitExceeded, so tests can assert both limits.
 *
 * Faithful where the adapter's correctness depends on it: a table made over a header has one blank body
 * row; text starting with = + - @ becomes a formula unless the cell's format is "@"; null in a values
 * array leaves a cell unchanged; 2-D arrays must match the range; deleteRowsAt exists only on the web.
 */

type Value = string | number | boolean;
interface CellState {
  value: Value;
  format: string;
  formula: boolean;
  fill?: string;
  validation?: string;
  /** false when the list accepts values not in it (the error alert is off). */
  validationAlert?: boolean;
}
interface SheetState {
  name: string;
  visibility: string;
  /** Review > Protect Sheet. */
  protected?: boolean;
  cells: Map<string, CellState>;
  /** Column width in points and visibility, by 0-based column: set on entire columns (ExcelApi 1.2). */
  columns?: Map<number, { width?: number; hidden?: boolean }>;
  /** View > Freeze Panes > rows (ExcelApi 1.7). */
  frozenRows?: number;
}
interface TableState {
  id: number;
  name: string;
  sheet: SheetState;
  row: number;
  col: number;
  width: number;
  /** Physical body rows (at least 1). */
  body: number;
}
interface Box {
  sheet: SheetState;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export interface FakeExcelOptions {
  web?: boolean;
  /**
   * Sheet rows (0-based) from which this process keeps no cells: Excel holds a big sheet in its own
   * process, not in the add-in's heap, so a benchmark of a million rows must not pay for a stand-in copy of
   * them. Writes there are still checked (array shape, payload size) and counted in `beyond`; reading
   * values there throws rather than answer blanks. Default: every row kept.
   */
  keptRows?: number;
  /**
   * The id of this session's first table (default 1). Office.js table ids hold within a session; a
   * workbook opened again (test/support/excel-file.ts) gets ids unlike those of the session that saved it.
   */
  firstTableId?: number;
}

/** What was written to rows past `keptRows`: counted, not kept. */
export interface Beyond {
  /** Non-empty cells written (values or formulas). */
  cells: number;
  /** The last row written there (0-based sheet row), -1 before any. */
  lastRow: number;
  /** The values of the last row written there, as sent. */
  lastValues: readonly unknown[];
}

const letters = (col: number) => {
  let s = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const a1 = (r: number, c: number) => `${letters(c)}${r + 1}`;
function parseA1(addr: string): { row: number; col: number; rows: number; cols: number } {
  const [a, b] = addr.replace(/\$/g, '').split(':');
  const p = (s: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(s)!;
    let col = 0;
    for (const ch of m[1]!) col = col * 26 + ch.charCodeAt(0) - 64;
    return { row: Number(m[2]) - 1, col: col - 1 };
  };
  const s = p(a!);
  const e = b ? p(b) : s;
  return { row: s.row, col: s.col, rows: e.row - s.row + 1, cols: e.col - s.col + 1 };
}
/** Excel's rows per sheet: an entire column spans them all. */
const MAX_FAKE_ROWS = 1_048_576;
const hostError = (code: string, message: string) => Object.assign(new Error(message), { code });
const blank = (): CellState => ({ value: '', format: 'General', formula: false });
/** Excel on the web's limit on one request and on one response. */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;
/** What one queued operation costs in a request besides its data (action, object path, ids). */
export const FAKE_OP_BYTES = 150;
const json = (v: unknown) => JSON.stringify(v)?.length ?? 4;

export class FakeExcel {
  sheets: SheetState[] = [{ name: 'Sheet1', visibility: 'Visible', cells: new Map() }];
  tables: TableState[] = [];
  settings = new Map<string, unknown>();
  notes = new Map<string, string>();
  comments = new Map<string, string>();
  /** Defined names (Formulas > Name Manager): one namespace with table names. */
  names: string[] = [];
  selection = { sheet: 'Sheet1', address: 'A1' };
  /** Estimated request bytes carried by each sync that reached Excel, in order. */
  syncBytes: number[] = [];
  /** Every sync with something queued, refused ones included: estimated request and response bytes. */
  payloads: { request: number; response: number; refused?: string }[] = [];
  calculationSuspensions = 0;
  beyond: Beyond = { cells: 0, lastRow: -1, lastValues: [] };
  /**
   * Milliseconds this stand-in spent being Excel (sizing what a write carries, applying a sync's
   * operations): work Excel does in its own process, which a benchmark in this one can subtract.
   */
  busyMs = 0;
  /** Runs before each sync's operations: what a user does in Excel between two round trips of a batch. */
  beforeSync: (() => void) | null = null;
  private nextId: number;

  constructor(readonly options: FakeExcelOptions = {}) {
    this.nextId = options.firstTableId ?? 1;
  }

  run = async <T>(batch: (ctx: Excel.RequestContext) => Promise<T>): Promise<T> => {
    const ctx = new FakeContext(this);
    const result = await batch(ctx as unknown as Excel.RequestContext);
    await ctx.sync();
    return result;
  };

  sheet(name: string): SheetState {
    const s = this.sheets.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!s) throw hostError('ItemNotFound', `no sheet ${name}`);
    return s;
  }
  table(name: string): TableState {
    // Excel finds a table by its name or its id.
    const t = this.tables.find((x) => x.name.toLowerCase() === name.toLowerCase() || `{${x.id}}` === name);
    if (!t) throw hostError('ItemNotFound', `no table ${name}`);
    return t;
  }
  get keptRows(): number {
    return this.options.keptRows ?? MAX_FAKE_ROWS;
  }
  cell(sheet: SheetState, r: number, c: number): CellState {
    // Formats, fills and validation past the kept rows land on a cell nobody keeps.
    if (r >= this.keptRows) return blank();
    let cell = sheet.cells.get(a1(r, c));
    if (!cell) sheet.cells.set(a1(r, c), (cell = blank()));
    return cell;
  }
  peek(sheet: string, address: string): CellState | undefined {
    return this.sheet(sheet).cells.get(address);
  }
  /** Values of a table's body as a user would see them ("" for empty). */
  body(name: string): Value[][] {
    const t = this.table(name);
    return Array.from({ length: t.body }, (_, r) => Array.from({ length: t.width }, (_, c) => t.sheet.cells.get(a1(t.row + 1 + r, t.col + c))?.value ?? ''));
  }
  header(name: string): Value[] {
    const t = this.table(name);
    return Array.from({ length: t.width }, (_, c) => t.sheet.cells.get(a1(t.row, t.col + c))?.value ?? '');
  }
  /** What a user does: types a calculated column at the right edge of a table. */
  addUserColumn(name: string, header: string, formula: string): void {
    const t = this.table(name);
    this.cell(t.sheet, t.row, t.col + t.width).value = header;
    for (let r = 0; r < t.body; r++) Object.assign(this.cell(t.sheet, t.row + 1 + r, t.col + t.width), { value: formula, formula: true });
    t.width++;
  }
  /** What a user does to a table's rows (cells move with their row; values only, as the tests need). */
  private setBody(name: string, rows: CellState[][]): void {
    const t = this.table(name);
    for (let r = 0; r < Math.max(rows.length, t.body); r++) {
      for (let c = 0; c < t.width; c++) {
        const cell = rows[r]?.[c];
        if (cell) t.sheet.cells.set(a1(t.row + 1 + r, t.col + c), cell);
        else t.sheet.cells.delete(a1(t.row + 1 + r, t.col + c));
      }
    }
    t.body = Math.max(1, rows.length);
  }
  private bodyCells(name: string): CellState[][] {
    const t = this.table(name);
    return Array.from({ length: t.body }, (_, r) => Array.from({ length: t.width }, (_, c) => this.cell(t.sheet, t.row + 1 + r, t.col + c)));
  }
  sortTable(name: string, column: number, order: 'ascending' | 'descending' = 'ascending'): void {
    const sign = order === 'ascending' ? 1 : -1;
    this.setBody(name, this.bodyCells(name).sort((a, b) => sign * String(a[column]!.value).localeCompare(String(b[column]!.value))));
  }
  insertTableRows(name: string, at: number, count: number): void {
    const rows = this.bodyCells(name);
    const width = this.table(name).width;
    rows.splice(at, 0, ...Array.from({ length: count }, () => Array.from({ length: width }, blank)));
    this.setBody(name, rows);
  }
  deleteTableRows(name: string, at: number, count = 1): void {
    const rows = this.bodyCells(name);
    rows.splice(at, count);
    this.setBody(name, rows);
  }
  newTable(sheet: SheetState, box: Box): TableState {
    for (const t of this.tables) {
      if (t.sheet === sheet && box.col < t.col + t.width && t.col < box.col + box.cols && box.row <= t.row + t.body && t.row <= box.row + 1) {
        throw hostError('InvalidOperation', 'A table cannot overlap another table.');
      }
    }
    const t: TableState = { id: this.nextId++, name: `Table${this.nextId}`, sheet, row: box.row, col: box.col, width: box.cols, body: 1 };
    this.tables.push(t);
    return t;
  }
  write(box: Box, what: 'values' | 'numberFormat' | 'formulas', data: unknown): void {
    const rows = data as unknown[][];
    if (!Array.isArray(rows) || rows.length !== box.rows || rows.some((r) => !Array.isArray(r) || r.length !== box.cols)) {
      throw hostError('InvalidArgument', `${what}: a ${box.rows}x${box.cols} array is needed`);
    }
    for (let r = 0; r < box.rows; r++) {
      if (box.row + r >= this.keptRows) {
        if (what !== 'numberFormat') this.countBeyond(box.row + r, rows[r]!);
        continue;
      }
      for (let c = 0; c < box.cols; c++) {
        const v = rows[r]![c];
        if (v === null || v === undefined) continue; // null leaves the cell unchanged
        const cell = this.cell(box.sheet, box.row + r, box.col + c);
        if (what === 'numberFormat') cell.format = String(v);
        else {
          cell.value = v as Value;
          cell.formula = typeof v === 'string' && /^[=+\-@]/.test(v) && v.length > 1 && (what === 'formulas' || cell.format !== '@');
        }
      }
    }
  }
  private countBeyond(row: number, values: unknown[]): void {
    for (const v of values) if (v !== null && v !== undefined && v !== '') this.beyond.cells++;
    if (row >= this.beyond.lastRow) this.beyond = { ...this.beyond, lastRow: row, lastValues: values };
  }
  shiftUp(sheet: SheetState, fromRow: number, count: number, col: number, cols: number): void {
    const last = Math.max(0, ...[...sheet.cells.keys()].map((k) => parseA1(k).row));
    for (let r = fromRow; r <= last; r++) {
      for (let c = col; c < col + cols; c++) {
        const below = sheet.cells.get(a1(r + count, c));
        if (below) sheet.cells.set(a1(r, c), below);
        else sheet.cells.delete(a1(r, c));
      }
    }
  }
}

type Op = () => void;

class FakeContext {
  private queue: Op[] = [];
  private bytes = 0;
  readonly workbook: unknown;
  constructor(readonly xl: FakeExcel) {
    this.workbook = new FakeWorkbook(this);
  }
  /** Response bytes of the sync being applied: loads add what they return. */
  private answer = 0;
  enqueue(op: Op, bytes = 0): void {
    this.queue.push(op);
    this.bytes += FAKE_OP_BYTES + bytes;
  }
  respond(bytes: number): void {
    this.answer += bytes;
  }
  async sync(): Promise<void> {
    const ops = this.queue;
    const request = this.bytes + 200;
    this.queue = [];
    this.bytes = 0;
    if (!ops.length) return;
    this.xl.beforeSync?.();
    if (request > PAYLOAD_LIMIT_BYTES) {
      this.xl.payloads.push({ request, response: 0, refused: 'request' });
      throw hostError('RequestPayloadSizeLimitExceeded', 'The request payload size has exceeded the limit.');
    }
    this.xl.syncBytes.push(request);
    this.answer = 200;
    const t0 = performance.now();
    try {
      for (const op of ops) op();
    } finally {
      this.xl.busyMs += performance.now() - t0;
    }
    const response = this.answer;
    if (response > PAYLOAD_LIMIT_BYTES) {
      this.xl.payloads.push({ request, response, refused: 'response' });
      throw hostError('ResponsePayloadSizeLimitExceeded', 'The response payload size has exceeded the limit.');
    }
    this.xl.payloads.push({ request, response });
  }
}

/** A proxy's loaded properties: readable only after a load and a sync. */
class Loadable {
  protected loaded = new Map<string, unknown>();
  constructor(protected ctx: FakeContext) {}
  protected read<T>(prop: string): T {
    if (!this.loaded.has(prop)) throw hostError('PropertyNotLoaded', `${prop} was not loaded`);
    return this.loaded.get(prop) as T;
  }
  protected snapshot(): Record<string, unknown> {
    return {};
  }
  /** What a collection's `load('items/...')` does for each item it returns. */
  preload(): this {
    const snap = this.snapshot();
    for (const [k, v] of Object.entries(snap)) this.loaded.set(k, v);
    this.loaded.set('isNullObject', snap.isNullObject ?? false);
    return this;
  }
  load(props?: string | string[]): this {
    const wanted = (Array.isArray(props) ? props : (props ?? '').split(',')).map((p) => p.trim()).filter(Boolean);
    this.ctx.enqueue(() => {
      const snap = this.snapshot();
      const props = wanted.length ? wanted : Object.keys(snap);
      for (const p of props) this.loaded.set(p, snap[p]);
      this.loaded.set('isNullObject', snap.isNullObject ?? false);
      this.ctx.respond(props.reduce((n, p) => n + p.length + 3 + json(snap[p]), 20));
    });
    return this;
  }
  get isNullObject(): boolean {
    return this.read('isNullObject');
  }
}

class FakeWorkbook {
  readonly worksheets: FakeSheets;
  readonly tables: FakeTables;
  readonly settings: FakeSettings;
  readonly notes: FakeNotes;
  readonly comments: FakeComments;
  readonly application: { suspendApiCalculationUntilNextSync(): void };
  readonly names: Loadable & { items: { name: string }[] };
  constructor(private ctx: FakeContext) {
    const names = new (class extends Loadable {
      items: { name: string }[] = [];
      override load(): this {
        ctx.enqueue(() => {
          this.items = ctx.xl.names.map((name) => ({ name }));
          ctx.respond(json(ctx.xl.names));
        });
        return this;
      }
    })(ctx);
    this.names = names;
    this.worksheets = new FakeSheets(ctx);
    this.tables = new FakeTables(ctx);
    this.settings = new FakeSettings(ctx);
    this.notes = new FakeNotes(ctx);
    this.comments = new FakeComments(ctx);
    this.application = { suspendApiCalculationUntilNextSync: () => ctx.enqueue(() => ctx.xl.calculationSuspensions++) };
  }
  getSelectedRange(): FakeRange {
    const { sheet, address } = this.ctx.xl.selection;
    const p = parseA1(address);
    return new FakeRange(this.ctx, () => ({ sheet: this.ctx.xl.sheet(sheet), ...p }));
  }
}

class FakeSheets extends Loadable {
  items: FakeSheet[] = [];
  override load(props?: string | string[]): this {
    this.ctx.enqueue(() => {
      this.items = this.ctx.xl.sheets.map((s) => new FakeSheet(this.ctx, () => s).preload());
      this.ctx.respond(json(this.ctx.xl.sheets.map((s) => s.name)) + 30 * this.items.length);
    });
    void props;
    return this;
  }
  add(name: string): FakeSheet {
    let made: SheetState | null = null;
    this.ctx.enqueue(() => {
      if (this.ctx.xl.sheets.some((s) => s.name.toLowerCase() === name.toLowerCase())) throw hostError('ItemAlreadyExists', name);
      made = { name, visibility: 'Visible', cells: new Map() };
      this.ctx.xl.sheets.push(made);
    });
    return new FakeSheet(this.ctx, () => made ?? this.ctx.xl.sheet(name));
  }
  getItem(name: string): FakeSheet {
    return new FakeSheet(this.ctx, () => this.ctx.xl.sheet(name));
  }
  getItemOrNullObject(name: string): FakeSheet {
    return new FakeSheet(this.ctx, () => this.ctx.xl.sheet(name), true);
  }
}

class FakeSheet extends Loadable {
  readonly tables: { add: (range: FakeRange | string, hasHeaders: boolean) => FakeTable };
  readonly resolve: () => SheetState;
  constructor(
    ctx: FakeContext,
    find: () => SheetState,
    private orNull = false,
  ) {
    super(ctx);
    let bound: SheetState | null = null;
    this.resolve = () => (bound ??= find());
    this.tables = {
      add: (range) => {
        let made: TableState | null = null;
        const r = typeof range === 'string' ? this.getRange(range) : range;
        ctx.enqueue(() => {
          made = ctx.xl.newTable(this.resolve(), r.box());
        });
        return new FakeTable(ctx, () => made!);
      },
    };
  }
  protected override snapshot() {
    let s: SheetState;
    try {
      s = this.resolve();
    } catch (e) {
      if (this.orNull) return { isNullObject: true };
      throw e;
    }
    return { name: s.name, visibility: s.visibility, isNullObject: false };
  }
  get name(): string {
    return this.read('name');
  }
  /** WorksheetFreezePanes (ExcelApi 1.7): the rows frozen at the top, as Excel keeps them per sheet. */
  get freezePanes(): { freezeRows(count: number): void } {
    return { freezeRows: (count) => this.ctx.enqueue(() => (this.resolve().frozenRows = count)) };
  }
  get protection(): Loadable & { protected: boolean } {
    const ctx = this.ctx;
    const resolve = this.resolve;
    return new (class extends Loadable {
      protected override snapshot() {
        return { protected: resolve().protected ?? false };
      }
      get protected(): boolean {
        return this.read('protected');
      }
    })(ctx);
  }
  set visibility(v: string) {
    this.ctx.enqueue(() => (this.resolve().visibility = v));
  }
  activate(): void {
    this.ctx.enqueue(() => (this.ctx.xl.selection = { sheet: this.resolve().name, address: 'A1' }));
  }
  delete(): void {
    this.ctx.enqueue(() => {
      const s = this.resolve();
      this.ctx.xl.sheets = this.ctx.xl.sheets.filter((x) => x !== s);
      this.ctx.xl.tables = this.ctx.xl.tables.filter((t) => t.sheet !== s);
    });
  }
  getRange(address: string): FakeRange {
    return new FakeRange(this.ctx, () => ({ sheet: this.resolve(), ...parseA1(address) }));
  }
  getRangeByIndexes(row: number, col: number, rows: number, cols: number): FakeRange {
    return new FakeRange(this.ctx, () => ({ sheet: this.resolve(), row, col, rows, cols }));
  }
}

class FakeRange extends Loadable {
  readonly format: { fill: { color: string; clear(): void }; columnWidth: number };
  readonly dataValidation: { rule: unknown; errorAlert: unknown; clear(): void };
  constructor(
    ctx: FakeContext,
    readonly box: () => Box,
  ) {
    super(ctx);
    const each = (fn: (c: CellState) => void) => () => {
      const b = box();
      for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.cols; c++) fn(ctx.xl.cell(b.sheet, b.row + r, b.col + c));
    };
    const eachColumn = (fn: (c: { width?: number; hidden?: boolean }) => void) => () => {
      const b = box();
      if (b.row !== 0 || b.rows !== MAX_FAKE_ROWS) throw hostError('InvalidArgument', 'column width and visibility are set on entire columns');
      const columns = (b.sheet.columns ??= new Map());
      for (let c = b.col; c < b.col + b.cols; c++) {
        const state = columns.get(c) ?? {};
        fn(state);
        columns.set(c, state);
      }
    };
    this.format = {
      set columnWidth(v: number) {
        ctx.enqueue(eachColumn((c) => (c.width = v)), json(v));
      },
      get columnWidth(): number {
        throw hostError('PropertyNotLoaded', 'columnWidth');
      },
      fill: {
        set color(v: string) {
          ctx.enqueue(each((c) => (c.fill = v)), json(v));
        },
        get color(): string {
          throw hostError('PropertyNotLoaded', 'fill color');
        },
        clear: () => ctx.enqueue(each((c) => delete c.fill)),
      },
    };
    this.dataValidation = {
      set rule(rule: unknown) {
        const source = (rule as { list?: { source?: string } }).list?.source;
        ctx.enqueue(each((c) => ((c.validation = source), (c.validationAlert = true))), json(rule));
      },
      get rule(): unknown {
        throw hostError('PropertyNotLoaded', 'rule');
      },
      set errorAlert(alert: unknown) {
        const show = (alert as { showAlert?: boolean }).showAlert;
        if (show !== undefined) ctx.enqueue(each((c) => (c.validationAlert = show)));
      },
      get errorAlert(): unknown {
        throw hostError('PropertyNotLoaded', 'errorAlert');
      },
      clear: () =>
        ctx.enqueue(
          each((c) => {
            delete c.validation;
            delete c.validationAlert;
          }),
        ),
    };
  }
  set columnHidden(v: boolean) {
    const b = this.box;
    this.ctx.enqueue(() => {
      const box = b();
      if (box.row !== 0 || box.rows !== MAX_FAKE_ROWS) throw hostError('InvalidArgument', 'columnHidden is set on entire columns');
      const columns = (box.sheet.columns ??= new Map());
      for (let c = box.col; c < box.col + box.cols; c++) columns.set(c, { ...columns.get(c), hidden: v });
    }, 10);
  }
  get columnHidden(): boolean {
    throw hostError('PropertyNotLoaded', 'columnHidden');
  }
  getEntireColumn(): FakeRange {
    return new FakeRange(this.ctx, () => ({ ...this.box(), row: 0, rows: MAX_FAKE_ROWS }));
  }
  orNull = false;
  protected override snapshot() {
    let b: Box;
    try {
      b = this.box();
    } catch (e) {
      if (this.orNull) return { isNullObject: true };
      throw e;
    }
    const kept = this.ctx.xl.keptRows;
    const grid = (f: (c: CellState | undefined) => unknown) => {
      if (b.row + b.rows > kept) throw hostError('InvalidOperation', `the fake keeps no cells from row ${kept + 1} on (keptRows); read above it`);
      return Array.from({ length: b.rows }, (_, r) => Array.from({ length: b.cols }, (_, c) => f(b.sheet.cells.get(a1(b.row + r, b.col + c)))));
    };
    // Values and formats are worked out only when loaded: loading a million-row body's rowCount must not
    // build its grid.
    return {
      address: `${b.sheet.name}!${a1(b.row, b.col)}${b.rows * b.cols > 1 ? `:${a1(b.row + b.rows - 1, b.col + b.cols - 1)}` : ''}`,
      get values() {
        return grid((c) => c?.value ?? '');
      },
      get numberFormat() {
        return grid((c) => c?.format ?? 'General');
      },
      rowIndex: b.row,
      columnIndex: b.col,
      rowCount: b.rows,
    };
  }
  /** The smallest range holding every non-empty cell of this one (values only), or a null object. */
  getUsedRangeOrNullObject(valuesOnly?: boolean): FakeRange {
    void valuesOnly;
    let found: Box | null = null;
    const outer = this.box;
    const used = new FakeRange(this.ctx, () => {
      if (found) return found;
      const b = outer();
      let top = Infinity, left = Infinity, bottom = -1, right = -1;
      for (const [at, cell] of b.sheet.cells) {
        if (cell.value === '' || cell.value === null) continue;
        const p = parseA1(at);
        if (p.row < b.row || p.row >= b.row + b.rows || p.col < b.col || p.col >= b.col + b.cols) continue;
        top = Math.min(top, p.row);
        left = Math.min(left, p.col);
        bottom = Math.max(bottom, p.row);
        right = Math.max(right, p.col);
      }
      if (bottom < 0) throw hostError('ItemNotFound', 'no used range');
      return (found = { sheet: b.sheet, row: top, col: left, rows: bottom - top + 1, cols: right - left + 1 });
    });
    used.orNull = true;
    return used;
  }
  private set(what: 'values' | 'numberFormat' | 'formulas', data: unknown) {
    const t0 = performance.now();
    const bytes = json(data);
    this.ctx.xl.busyMs += performance.now() - t0;
    this.ctx.enqueue(() => this.ctx.xl.write(this.box(), what, data), bytes);
  }
  set values(v: unknown[][]) {
    this.set('values', v);
  }
  get values(): unknown[][] {
    return this.read('values');
  }
  set numberFormat(v: unknown[][]) {
    this.set('numberFormat', v);
  }
  get numberFormat(): unknown[][] {
    return this.read('numberFormat');
  }
  set formulas(v: unknown[][]) {
    this.set('formulas', v);
  }
  get address(): string {
    return this.read('address');
  }
  /** Range.find with completeMatch and matchCase: resolved when the batch runs, as in Excel. */
  find(text: string): FakeRange {
    return new FakeRange(this.ctx, () => this.locate(text) ?? (() => { throw hostError('ItemNotFound', `"${text}" was not found`); })());
  }
  findOrNullObject(text: string): FakeRange {
    const found = this.find(text);
    found.orNull = true;
    return found;
  }
  private locate(text: string): Box | undefined {
    const b = this.box();
    for (let r = 0; r < b.rows; r++)
      for (let c = 0; c < b.cols; c++)
        if (String(b.sheet.cells.get(a1(b.row + r, b.col + c))?.value ?? '') === text) return { sheet: b.sheet, row: b.row + r, col: b.col + c, rows: 1, cols: 1 };
    return undefined;
  }
  getOffsetRange(rows: number, cols: number): FakeRange {
    return new FakeRange(this.ctx, () => {
      const b = this.box();
      return { ...b, row: b.row + rows, col: b.col + cols };
    });
  }
  getCell(row: number, col: number): FakeRange {
    return new FakeRange(this.ctx, () => ({ ...this.box(), row: this.box().row + row, col: this.box().col + col, rows: 1, cols: 1 }));
  }
  getResizedRange(rows: number, cols: number): FakeRange {
    return new FakeRange(this.ctx, () => {
      const b = this.box();
      return { ...b, rows: b.rows + rows, cols: b.cols + cols };
    });
  }
  get rowIndex(): number {
    return this.read('rowIndex');
  }
  get columnIndex(): number {
    return this.read('columnIndex');
  }
  get rowCount(): number {
    return this.read('rowCount');
  }
  /** Range.select: the selection moves to the range's top left cell, on its sheet. */
  select(): void {
    this.ctx.enqueue(() => {
      const b = this.box();
      this.ctx.xl.selection = { sheet: b.sheet.name, address: a1(b.row, b.col) };
    });
  }
  /** Like Excel's Range.clear: "Contents" keeps formats, fills and validation; "All" (the default) also drops notes. */
  clear(applyTo: 'All' | 'Contents' | 'Formats' = 'All'): void {
    this.ctx.enqueue(() => {
      const b = this.box();
      for (let r = 0; r < b.rows; r++) {
        for (let c = 0; c < b.cols; c++) {
          const at = a1(b.row + r, b.col + c);
          const cell = b.sheet.cells.get(at);
          if (applyTo === 'All') {
            b.sheet.cells.delete(at);
            this.ctx.xl.notes.delete(`${b.sheet.name}!${at}`);
          } else if (cell && applyTo === 'Contents') Object.assign(cell, { value: '', formula: false });
          else if (cell && applyTo === 'Formats') {
            cell.format = 'General';
            delete cell.fill;
          }
        }
      }
    });
  }
  delete(shift: string): void {
    if (shift !== 'Up') throw new Error('fake supports shift Up only');
    this.ctx.enqueue(() => {
      const b = this.box();
      this.ctx.xl.shiftUp(b.sheet, b.row, b.rows, b.col, b.cols);
      for (const t of this.ctx.xl.tables) {
        if (t.sheet === b.sheet && b.row > t.row && b.row <= t.row + t.body && b.col <= t.col && b.col + b.cols >= t.col + t.width) t.body -= b.rows;
      }
    });
  }
}

class FakeTables extends Loadable {
  items: FakeTable[] = [];
  override load(): this {
    this.ctx.enqueue(() => {
      this.items = this.ctx.xl.tables.map((t) => new FakeTable(this.ctx, () => t).preload());
      this.ctx.respond(json(this.ctx.xl.tables.map((t) => t.name)) + 30 * this.items.length);
    });
    return this;
  }
  getItemOrNullObject(name: string): FakeTable {
    return new FakeTable(this.ctx, () => this.ctx.xl.table(name), true);
  }
}

class FakeTable extends Loadable {
  readonly rows: { add(index: number | undefined, values: unknown[][]): void; deleteRowsAt(index: number, count?: number): void };
  readonly columns: { add(index?: number, values?: unknown, name?: string): void; getItemAt(i: number): { getDataBodyRange(): FakeRange } };
  readonly resolve: () => TableState;
  constructor(
    ctx: FakeContext,
    find: () => TableState,
    private orNull = false,
  ) {
    super(ctx);
    let bound: TableState | null = null;
    const resolve = (this.resolve = () => (bound ??= find()));
    const xl = ctx.xl;
    this.rows = {
      add: (_index, values) => {
        ctx.enqueue(() => {
          const t = resolve();
          xl.write({ sheet: t.sheet, row: t.row + 1 + t.body, col: t.col, rows: values.length, cols: t.width }, 'values', values);
          t.body += values.length;
        }, json(values));
      },
      deleteRowsAt: (index, count = 1) => {
        if (!xl.options.web) throw hostError('ApiNotFound', 'deleteRowsAt exists only in Excel on the web');
        ctx.enqueue(() => {
          const t = resolve();
          xl.shiftUp(t.sheet, t.row + 1 + index, count, t.col, t.width);
          t.body -= count;
        });
      },
    };
    this.columns = {
      add: (_index, _values, name) => {
        ctx.enqueue(() => {
          const t = resolve();
          xl.cell(t.sheet, t.row, t.col + t.width).value = name ?? `Column${t.width + 1}`;
          t.width++;
        });
      },
      getItemAt: (i) => ({
        getDataBodyRange: () => new FakeRange(ctx, () => {
          const t = resolve();
          return { sheet: t.sheet, row: t.row + 1, col: t.col + i, rows: t.body, cols: 1 };
        }),
      }),
    };
  }
  protected override snapshot() {
    if (this.orNull) {
      try {
        this.resolve();
      } catch {
        return { isNullObject: true };
      }
    }
    return { name: this.resolve().name, id: `{${this.resolve().id}}`, isNullObject: false };
  }
  get name(): string {
    return this.read('name');
  }
  get id(): string {
    return this.read('id');
  }
  set name(v: string) {
    this.ctx.enqueue(() => (this.resolve().name = v));
  }
  get worksheet(): FakeSheet {
    return new FakeSheet(this.ctx, () => this.resolve().sheet);
  }
  getHeaderRowRange(): FakeRange {
    return new FakeRange(this.ctx, () => {
      const t = this.resolve();
      return { sheet: t.sheet, row: t.row, col: t.col, rows: 1, cols: t.width };
    });
  }
  getDataBodyRange(): FakeRange {
    return new FakeRange(this.ctx, () => {
      const t = this.resolve();
      return { sheet: t.sheet, row: t.row + 1, col: t.col, rows: t.body, cols: t.width };
    });
  }
  resize(range: FakeRange): void {
    this.ctx.enqueue(() => {
      const t = this.resolve();
      const b = range.box();
      if (b.row !== t.row || b.col !== t.col || b.rows < 2) throw hostError('InvalidArgument', 'resize must keep the header and one body row');
      // A growing table carries its columns' dropdowns down to the new rows, as Excel does.
      for (let c = 0; c < t.width; c++) {
        const last = t.sheet.cells.get(a1(t.row + t.body, t.col + c));
        if (!last?.validation) continue;
        for (let r = t.body; r < b.rows - 1; r++) Object.assign(this.ctx.xl.cell(t.sheet, t.row + 1 + r, t.col + c), { validation: last.validation, validationAlert: last.validationAlert });
      }
      // And its calculated columns (one formula in every body row) fill the new rows, as Excel does. Read
      // row by row up to the first that differs: a table grown chunk by chunk to a million rows would
      // otherwise read its whole body at every resize.
      for (let c = 0; c < t.width; c++) {
        const f = t.sheet.cells.get(a1(t.row + 1, t.col + c));
        const same = (r: number) => {
          const x = t.sheet.cells.get(a1(t.row + 1 + r, t.col + c));
          return x?.formula && x.value === f!.value;
        };
        let r = 1;
        while (f?.formula && r < t.body && same(r)) r++;
        if (!f?.formula || r < t.body) continue;
        for (let r = t.body; r < b.rows - 1; r++) Object.assign(this.ctx.xl.cell(t.sheet, t.row + 1 + r, t.col + c), { value: f.value, formula: true });
      }
      t.width = b.cols;
      t.body = b.rows - 1;
    });
  }
  delete(): void {
    this.ctx.enqueue(() => {
      const t = this.resolve();
      this.ctx.xl.tables = this.ctx.xl.tables.filter((x) => x !== t);
    });
  }
}

class FakeSetting extends Loadable {
  constructor(
    ctx: FakeContext,
    private key: string,
  ) {
    super(ctx);
  }
  protected override snapshot() {
    const has = this.ctx.xl.settings.has(this.key);
    return { isNullObject: !has, value: this.ctx.xl.settings.get(this.key) };
  }
  get value(): unknown {
    return this.read('value');
  }
  delete(): void {
    this.ctx.enqueue(() => this.ctx.xl.settings.delete(this.key));
  }
}

class FakeSettings {
  constructor(private ctx: FakeContext) {}
  add(key: string, value: unknown): void {
    this.ctx.enqueue(() => this.ctx.xl.settings.set(key, value), json(key) + json(value));
  }
  getItemOrNullObject(key: string): FakeSetting {
    return new FakeSetting(this.ctx, key);
  }
}

const localAddress = (full: string) => full.replace(/^'(.*)'!/, '$1!');

class FakeNote extends Loadable {
  constructor(
    ctx: FakeContext,
    private address: string,
  ) {
    super(ctx);
  }
  protected override snapshot() {
    return { isNullObject: !this.ctx.xl.notes.has(this.address) };
  }
  set content(v: string) {
    this.ctx.enqueue(() => this.ctx.xl.notes.set(this.address, v), json(this.address) + json(v));
  }
  delete(): void {
    this.ctx.enqueue(() => this.ctx.xl.notes.delete(this.address));
  }
}

class FakeNotes {
  constructor(private ctx: FakeContext) {}
  getItemOrNullObject(address: string): FakeNote {
    return new FakeNote(this.ctx, localAddress(address));
  }
  add(address: string, content: string): void {
    this.ctx.enqueue(() => {
      if (this.ctx.xl.notes.has(localAddress(address))) throw hostError('InvalidOperation', 'a note exists');
      this.ctx.xl.notes.set(localAddress(address), content);
    }, json(address) + json(content));
  }
}

class FakeComments extends Loadable {
  items: { getLocation(): { load(): { address: string } }; content: string; delete(): void }[] = [];
  override load(): this {
    this.ctx.enqueue(() => {
      this.items = [...this.ctx.xl.comments.keys()].map((address) => {
        const ctx = this.ctx;
        return {
          getLocation: () => ({ load: () => ({ address }) }),
          set content(v: string) {
            ctx.enqueue(() => ctx.xl.comments.set(address, v));
          },
          get content(): string {
            return ctx.xl.comments.get(address)!;
          },
          delete: () => ctx.enqueue(() => ctx.xl.comments.delete(address)),
        };
      });
    });
    return this;
  }
  add(address: string, content: string): void {
    this.ctx.enqueue(() => this.ctx.xl.comments.set(localAddress(address), content), json(address) + json(content));
  }
}

/** ExcelApi 1.0 to 1.`minor` (and ExcelApiOnline 1.1 when `web`). */
export const supports =
  (minor: number, web = false) =>
  (set: string, v: string): boolean =>
    set === 'ExcelApi' ? Number(v.split('.')[1]) <= minor : set === 'ExcelApiOnline' ? web : false;
