import { foregroundFromStat } from '../../src/cli/terminal-keys';

describe('whether the process is its terminal’s foreground group (/proc/self/stat)', () => {
  // Fields: pid (comm) state ppid pgrp session tty_nr tpgid ...
  it('reads pgrp and tpgid after the command name, which may hold spaces and parentheses', () => {
    expect(foregroundFromStat('4242 (node) S 4200 4242 4100 34817 4242 4194560 1 2')).toBe(true);
    expect(foregroundFromStat('4242 (MainThread (x) y) S 4200 4242 4100 34817 4300 4194560 1 2')).toBe(false);
  });

  it('without a terminal (tpgid -1) nothing is known: raw mode is not taken', () => {
    expect(foregroundFromStat('4242 (node) S 1 4242 4242 0 -1 4194560 1 2')).toBeUndefined();
  });
});
