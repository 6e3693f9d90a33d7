import type { WorkbookPort } from './port';

/**
 * Every change to the add-in's workbook settings (bindings, marks, table records) goes through this one
 * queue. A setting holds a whole map, so a change is read, modify, write: a load, a refresh and a post
 * running together would otherwise each read the map before the others wrote it, and the last write
 * would drop the others' entries. One taskpane talks to one workbook, so one queue per page is enough.
 */
let tail: Promise<unknown> = Promise.resolve();

export function updateSetting<T>(workbook: WorkbookPort, key: string, change: (current: unknown) => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
  const next = tail.then(async () => {
    const current = await workbook.getSetting(key);
    const value = await change(current);
    if (JSON.stringify(value) !== JSON.stringify(current)) await workbook.setSetting(key, value);
    return value;
  });
  // A failed change fails its caller only; the queue goes on.
  tail = next.catch(() => undefined);
  return next;
}
