import { chmodSync, copyFileSync, existsSync, linkSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FileProblem } from './problem';

/**
 * Safe handling of the workbook file: the new package is written to a temporary file beside it and renamed
 * over it in one step, so a reader (or a power cut) sees the old file or the new one, never half of one.
 */

/** The lock file Office keeps beside a workbook it has open (`~$` + name, the first two letters dropped when the name is long). */
export function officeLockFile(path: string): string | null {
  const dir = dirname(path);
  const name = basename(path);
  const candidates = [`~$${name}`, `~$${name.slice(2)}`, `.~lock.${name}#`];
  return candidates.map((c) => join(dir, c)).find((c) => existsSync(c)) ?? null;
}

export function refuseIfOpen(path: string): void {
  const lock = officeLockFile(path);
  if (lock) {
    throw new FileProblem(
      'locked',
      `${basename(path)} is open in Excel or LibreOffice (its lock file ${basename(lock)} is there), and what grc-sheets writes into it would be lost when it is saved there. Close it and run again; if nobody has it open, delete ${basename(lock)}.`,
    );
  }
}

export interface FileStamp {
  size: number;
  mtimeMs: number;
}
export const stampOf = (path: string): FileStamp => {
  const s = statSync(path);
  return { size: s.size, mtimeMs: s.mtimeMs };
};

/** Where --backup keeps the previous file: `book.bak.xlsx` beside `book.xlsx` (Excel still opens it). */
export const backupPathOf = (path: string): string => path.replace(/(\.[^./\\]+)?$/, (ext) => `.bak${ext || ''}`);

/**
 * Writes the new file through `write(temp)` and puts it in place of `path`, unless the file changed
 * since `stamp` was taken (someone saved it meanwhile: their work wins, ours is dropped) or was opened
 * in the meantime. The temporary file is removed whatever happens.
 */
export function replaceFile(path: string, stamp: FileStamp, write: (temp: string) => void, options: { backup?: boolean } = {}): { backup?: string } {
  const temp = join(dirname(path), `.${basename(path)}.grc-sheets-${process.pid}.tmp`);
  try {
    write(temp);
    chmodSync(temp, statSync(path).mode & 0o7777);
    const now = stampOf(path);
    if (now.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs) {
      throw new FileProblem('locked', `${basename(path)} was changed by someone else while grc-sheets was writing it; their version is kept. Run the command again.`);
    }
    refuseIfOpen(path);
    let backup: string | undefined;
    if (options.backup) {
      backup = backupPathOf(path);
      if (existsSync(backup)) unlinkSync(backup);
      // A hard link keeps the previous file without copying it; where links are not possible, a copy.
      try {
        linkSync(path, backup);
      } catch {
        copyFileSync(path, backup);
      }
    }
    renameSync(temp, path);
    return backup ? { backup } : {};
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
}
