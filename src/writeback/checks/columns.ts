import type { Problem } from '../problem';
import { isOwnColumn } from '../rows/rowkey';
import { editDistance } from './closest';

/**
 * A column the flow does not know is not read, so its cells are not sent: a misspelt "Desciption" would
 * drop every description silently. A table-level warning names the closest known column when one is near.
 */
export function unknownColumns(columns: readonly string[], known: readonly string[]): Problem[] {
  const knownLower = new Set(known.map((k) => k.trim().toLowerCase()));
  return columns.flatMap((c): Problem[] => {
    if (!c.trim() || isOwnColumn(c) || knownLower.has(c.trim().toLowerCase())) return [];
    let best: { name: string; d: number } | undefined;
    for (const k of known) {
      const d = editDistance(c.trim().toLowerCase(), k.toLowerCase());
      if (!best || d < best.d) best = { name: k, d };
    }
    const near = best && best.d <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
    return [
      {
        row: -1,
        column: c,
        code: 'unknown-column',
        severity: 'warning',
        message: near
          ? `"${c}" is not a column of this template, so its cells are not sent; did you mean "${near}"? Rename the column`
          : `"${c}" is not a column of this template, so its cells are not sent; rename it to a template column if its data should go to the service`,
      },
    ];
  });
}
