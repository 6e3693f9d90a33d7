import { useEffect, useRef } from 'react';
import type { WorkbookSnapshot } from '../../workbook/memory';

/**
 * A table made on the sheet the grid shows (a load, a new template) is what the user just asked for: when
 * the grid is out of sight below a stacked taskpane (350 px), the page scrolls to it at once, so the table
 * is seen filling in rather than 4,000 px further down. Tables that were there before, or made on another
 * sheet (the audit log of a post), leave the page where it is: the user may be reading the pane.
 */
export function useGridInSight(sheet: string, tables: WorkbookSnapshot['tables']) {
  const rootRef = useRef<HTMLDivElement>(null);
  const seen = useRef<Set<string> | null>(null);
  const here = tables
    .filter((t) => t.sheet === sheet)
    .map((t) => t.name)
    .join('\n');
  const all = tables.map((t) => t.name);
  seen.current ??= new Set(all);
  useEffect(() => {
    const known = seen.current!;
    const made = here !== '' && here.split('\n').some((name) => !known.has(name));
    for (const name of all) known.add(name);
    const root = rootRef.current;
    if (!made || !root) return;
    if (root.getBoundingClientRect().top >= window.innerHeight) root.scrollIntoView({ block: 'start' });
    // `all` is read, not a reason to run: only a table appearing on the shown sheet is.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [here]);
  return { rootRef };
}
