import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Ctrl-C in a terminal read as a key, not taken as a signal, while a server command runs in the foreground.
 *
 * Why: a terminal's Ctrl-C sends SIGINT to every process of the foreground group, and under `npm start` or
 * `npx grc-sheets` that group holds npm's script shell between npm and us. Debian's and Ubuntu's sh (dash)
 * does not catch SIGINT when it runs a script, so it dies of it whatever we then do, and npm re-raises its
 * shell's signal: exit 130 for a clean stop (bash waits for its child and exits 0 when the child did). With
 * the terminal in raw mode the kernel sends no signal at all: Ctrl-C reaches us as the byte 0x03, we stop
 * as on SIGINT, and every layer above exits 0. On Windows, the console's raw mode likewise keeps cmd.exe
 * from asking "Terminate batch job (Y/N)?" (not tried there: we cannot run Windows).
 *
 * Only when we are the terminal's foreground process group: a background process that changes the
 * terminal's mode is stopped by the kernel (SIGTTOU). Ctrl-Z still suspends (the terminal is given back in
 * its usual mode, and raw mode is taken again on `fg`). Node restores the terminal's mode when it exits.
 */

const CTRL_C = 0x03;
const CTRL_Z = 0x1a;

/** The process group and the terminal's foreground group (`/proc/self/stat` fields 5 and 8), where readable. */
export function foregroundFromStat(stat: string): boolean | undefined {
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const pgrp = Number(fields[2]);
  const tpgid = Number(fields[5]);
  if (!Number.isInteger(pgrp) || !Number.isInteger(tpgid) || tpgid <= 0) return undefined;
  return pgrp === tpgid;
}

function inForeground(): boolean {
  if (process.platform === 'win32') return true; // no process groups on a Windows console
  try {
    if (process.platform === 'linux') return foregroundFromStat(readFileSync('/proc/self/stat', 'utf8')) === true;
    const [tpgid, pgid] = execFileSync('ps', ['-o', 'tpgid=,pgid=', '-p', String(process.pid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/)
      .map(Number);
    return tpgid !== undefined && tpgid > 0 && tpgid === pgid;
  } catch {
    return false;
  }
}

/**
 * Reads Ctrl-C from the terminal and calls `stop` on it, when stdin is a terminal we own in the foreground.
 * Returns the function that gives the terminal back (idempotent); a no-op when nothing was taken.
 */
export function ctrlCAsKey(stop: () => void): () => void {
  const stdin = process.stdin;
  if (!stdin.isTTY || typeof stdin.setRawMode !== 'function' || !inForeground()) return () => undefined;
  const raw = (on: boolean) => {
    try {
      stdin.setRawMode(on);
    } catch {
      // The terminal went away (its window closed): nothing to give back.
    }
  };
  const onCont = () => raw(true);
  const onData = (bytes: Buffer) => {
    if (bytes.includes(CTRL_C)) stop();
    else if (bytes.includes(CTRL_Z) && process.platform !== 'win32') {
      // Suspend as the terminal would have: the whole group, with the terminal in its usual mode meanwhile.
      raw(false);
      process.kill(0, 'SIGTSTP');
    }
  };
  raw(true);
  stdin.on('data', onData);
  stdin.resume();
  process.on('SIGCONT', onCont);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    stdin.off('data', onData);
    process.off('SIGCONT', onCont);
    raw(false);
    // Paused, the terminal no longer keeps Node running: the command exits when it returns.
    stdin.pause();
  };
}
