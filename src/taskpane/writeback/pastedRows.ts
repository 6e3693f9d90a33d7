import type { Cell } from '../../workbook/port';

/**
 * Rows pasted as tab-separated text (what Excel and most tools put on the clipboard), header line first,
 * turned into cells of a table's columns: plain numbers as numbers and TRUE/FALSE as booleans, as Excel
 * stores typed input; everything else stays text, so validation sees what was typed (2025-03-04 is
 * accepted as ISO text; 03/04/2025 stays text and is refused there, with the reason).
 */
export type Pasted = { ok: true; rows: Cell[][] } | { ok: false; message: string };

export function pastedRows(text: string, columns: readonly string[]): Pasted {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 2)
    return {
      ok: false,
      message: 'Paste a header line with column names, then one line per row, separated by tabs.',
    };
  const header = lines[0]!.split('\t').map((h) => h.trim());
  const at = header.map((h) => columns.findIndex((c) => c.toLowerCase() === h.toLowerCase()));
  const unknown = header.filter((_, i) => at[i] === -1);
  if (unknown.length)
    return {
      ok: false,
      message: `These columns are not in the table: ${unknown.join(', ')}. Use the table's header names.`,
    };
  const rows = lines.slice(1).map((line) => {
    const cells: Cell[] = columns.map(() => null);
    line.split('\t').forEach((raw, i) => {
      const c = at[i];
      if (c !== undefined && c >= 0) cells[c] = typed(raw.trim());
    });
    return cells;
  });
  return { ok: true, rows };
}

function typed(raw: string): Cell {
  if (raw === '') return null;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}
