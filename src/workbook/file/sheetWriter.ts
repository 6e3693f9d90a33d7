import { columnLetters } from '../address';
import { cellsWithin, rowAttrs, splitRow, type RawCell, type SheetPiece } from './rows';

/**
 * A worksheet rewritten as it streams: rows outside every changed area are passed through as they were
 * (their text untouched); inside a table's rows, the table's cells come from the table's plan and every
 * other cell of the row is kept. Nothing is held but the row at hand.
 */
export interface TableArea {
  /** Header row and first column, 0-based sheet positions. */
  headerRow: number;
  col: number;
  /** Columns and last sheet row (inclusive) of the table before and after the change. */
  oldWidth: number;
  newWidth: number;
  oldLast: number;
  newLast: number;
  /** Header cells of columns [oldWidth, newWidth): new columns' names. */
  header(c: number, ref: string): string;
  /** The XML of the table's body cell (row = body position), given the old cell there; '' for none. */
  body(row: number, c: number, ref: string, old: RawCell | undefined): string;
  /** Whether every cell of body row `row` is new (written in this session), so its old cells are not read. */
  rewritten(row: number): boolean;
  /** Whether body row `row` keeps every cell it has (nothing written, marked or cleared there): passed through as it is. */
  untouched(row: number): boolean;
  /** Whether column `c`'s cells in body rows [0, rows) are all new. */
  rewrittenIn(c: number, rows: number): boolean;
  /**
   * Body row `row` (the sheet's one changed table's, nothing else written on it) as the last save wrote it,
   * when nothing it is made of changed since; undefined when it must be made again.
   */
  saved?(row: number): string | undefined;
  /** The row as this save writes it, for the next save's `saved`. */
  keep?(row: number, xml: string): void;
}

export interface SheetPlan {
  tables: TableArea[];
  /** Cells outside tables to set, by sheet row then column: XML, or '' to clear. */
  loose: Map<number, Map<number, (ref: string) => string>>;
  head(text: string): string;
  tail(text: string): string;
  onRow?(row: number): void;
}

interface Span {
  from: number;
  to: number;
}

function spans(plan: SheetPlan): Span[] {
  const all: Span[] = [
    ...plan.tables.map((t) => ({ from: t.headerRow, to: Math.max(t.oldLast, t.newLast) })),
    ...[...plan.loose.keys()].map((r) => ({ from: r, to: r })),
  ].sort((a, b) => a.from - b.from);
  const merged: Span[] = [];
  for (const s of all) {
    const last = merged[merged.length - 1];
    if (last && s.from <= last.to + 1) last.to = Math.max(last.to, s.to);
    else merged.push({ ...s });
  }
  return merged;
}

export function* rewriteSheet(pieces: Iterable<SheetPiece>, plan: SheetPlan): Generator<string> {
  const areas = spans(plan);
  let span = 0;
  let cursor = 0;
  const letters = new Map<number, string>();
  const letter = (c: number) => {
    let l = letters.get(c);
    if (l === undefined) letters.set(c, (l = columnLetters(c)));
    return l;
  };
  const only = plan.tables.length === 1 ? plan.tables[0]! : null;
  /** The body row of the sheet's one changed table that sheet row r is, with nothing else written on it; -1 if none. */
  const bodyOf = (r: number) => (only && r > only.headerRow && r <= only.newLast && !plan.loose.has(r) ? r - only.headerRow - 1 : -1);
  /** Sheet row r as `make` writes it, or as the last save wrote it when the table says nothing changed there. */
  const kept = (r: number, make: () => string): string => {
    const body = bodyOf(r);
    if (body < 0 || !only!.saved || !only!.keep) return make();
    let xml = only!.saved(body);
    if (xml === undefined) only!.keep(body, (xml = make()));
    return xml;
  };

  const build = (r: number, attrs: string | null, old: RawCell[]): string => {
    const rowNo = String(r + 1);
    // The common row: only one table's body cells, nothing else on it (every row of a table that grew).
    if (only && !old.length && bodyOf(r) >= 0) {
      const body = r - only.headerRow - 1;
      let xml = `<row r="${rowNo}"${attrs ? ` ${attrs.trim()}` : ''}>`;
      for (let c = 0; c < only.newWidth; c++) xml += only.body(body, c, letter(only.col + c) + rowNo, undefined);
      return `${xml}</row>`;
    }
    const parts: RawCell[] = [];
    let keep = old;
    const tables = plan.tables.filter((t) => r >= t.headerRow && r <= Math.max(t.oldLast, t.newLast));
    for (const t of tables) {
      const width = Math.max(t.oldWidth, t.newWidth);
      const inTable = (c: number) => c >= t.col && c < t.col + width;
      if (r === t.headerRow) {
        keep = keep.filter((x) => !(x.col >= t.col + t.oldWidth && x.col < t.col + t.newWidth));
        for (let c = t.oldWidth; c < t.newWidth; c++) parts.push({ col: t.col + c, xml: t.header(c, letter(t.col + c) + rowNo) });
        continue;
      }
      const mine = keep.filter((x) => inTable(x.col));
      if (mine.length) keep = keep.filter((x) => !inTable(x.col));
      if (r > t.newLast) continue;
      const byCol = mine.length ? new Map(mine.map((x) => [x.col - t.col, x])) : null;
      const body = r - t.headerRow - 1;
      for (let c = 0; c < t.newWidth; c++) {
        const xml = t.body(body, c, letter(t.col + c) + rowNo, byCol?.get(c));
        if (xml) parts.push({ col: t.col + c, xml });
      }
    }
    const loose = plan.loose.get(r);
    if (loose) {
      keep = keep.filter((x) => !loose.has(x.col));
      for (const [c, make] of loose) {
        const xml = make(letter(c) + rowNo);
        if (xml) parts.push({ col: c, xml });
      }
    }
    const cells = keep.length ? [...keep, ...parts].sort((a, b) => a.col - b.col) : parts;
    if (!cells.length && attrs === null) return '';
    let xml = `<row r="${rowNo}"${attrs ? ` ${attrs.trim()}` : ''}>`;
    for (const c of cells) xml += c.xml;
    return `${xml}</row>`;
  };

  // Rows of the changed areas that the old sheet does not have, from `cursor` up to (not including) `until`.
  function* fill(until: number): Generator<string> {
    while (span < areas.length && cursor < until) {
      const a = areas[span]!;
      if (a.to < cursor) {
        span++;
        continue;
      }
      const from = Math.max(a.from, cursor);
      if (from >= until) break;
      const to = Math.min(a.to, until - 1);
      let out: string[] = [];
      let length = 0;
      for (let r = from; r <= to; r++) {
        const row = kept(r, () => build(r, null, []));
        out.push(row);
        length += row.length;
        plan.onRow?.(r);
        if (length > 1 << 16) {
          yield out.join('');
          out = [];
          length = 0;
        }
      }
      if (out.length) yield out.join('');
      cursor = to + 1;
    }
    cursor = Math.max(cursor, until);
  }

  let pending = '';
  for (const piece of pieces) {
    if (piece.kind === 'head') {
      yield plan.head(piece.text);
      continue;
    }
    if (piece.kind === 'tail') {
      if (pending) yield pending;
      yield* fill(Number.MAX_SAFE_INTEGER);
      yield plan.tail(piece.text);
      continue;
    }
    const r = piece.index;
    if (r >= cursor) {
      if (pending) {
        yield pending;
        pending = '';
      }
      yield* fill(r);
    }
    while (span < areas.length && areas[span]!.to < r) span++;
    const a = areas[span];
    if (a && r >= a.from && r <= a.to) {
      // A row the change leaves alone passes through as it is; a row whose cells are all replaced (and that
      // holds nothing else) is written without reading its old cells.
      const body = bodyOf(r);
      if (body >= 0 && only!.untouched(body)) pending += piece.text;
      else {
        pending += kept(r, () => {
          if (body >= 0 && only!.rewritten(body) && cellsWithin(piece.text, only!.col, only!.newWidth)) return build(r, rowAttrs(piece.text), []);
          const { attrs, cells } = splitRow(piece.text);
          return build(r, attrs, cells);
        });
      }
      plan.onRow?.(r);
    } else pending += piece.text;
    cursor = r + 1;
    if (pending.length > 1 << 16) {
      yield pending;
      pending = '';
    }
  }
}
