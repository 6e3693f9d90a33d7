import type { WorkbookPort } from './port';

/**
 * Every change to the add-in's workbook settings (bindings, marks, table records) goes through its
 * workbook's queue. A setting holds a whole map, so a change is read, modify, write: a load, a refresh and
 * a post running together would otherwise each read the map before the others wrote it, and the last write
 * would drop the others' entries. One queue per workbook: a process holding several (the command line, the
 * tests) never makes one workbook wait on another's writes.
 *
 * Keyed by the workbook's own setSetting: a wrapper that spreads a workbook to change one method (the
 * command line's post saves the file after each write) shares the settings, and so the queue, of the
 * workbook it wraps.
 */
const tails = new WeakMap<WorkbookPort['setSetting'], Promise<unknown>>();

export function updateSetting<T>(
  workbook: WorkbookPort,
  key: string,
  change: (current: unknown) => T | undefined | Promise<T | undefined>,
): Promise<T | undefined> {
  const queue = workbook.setSetting;
  const next = (tails.get(queue) ?? Promise.resolve()).then(async () => {
    const current = await workbook.getSetting(key);
    const value = await change(current);
    if (JSON.stringify(value) !== JSON.stringify(current)) await workbook.setSetting(key, value);
    return value;
  });
  // A failed change fails its caller only; the queue goes on.
  tails.set(queue, next.catch(() => undefined));
  return next;
}
