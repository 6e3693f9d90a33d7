import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Runs `grc-sheets start` as a user does and resolves with its banner once it says it is running. */
export function startCli(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; banner: string }> {
  const child = spawn(process.execPath, ['bin/grc-sheets.js', 'start', '--port', '0', ...args], {
    cwd: ROOT,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops everything.')) resolve({ child, banner: out });
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      reject(new Error(`grc-sheets start exited with ${code} before it was ready:\n${out}${err}`)),
    );
  });
}

/** Ctrl-C, as in a terminal; resolves with the exit code. */
export function stopCli(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}
