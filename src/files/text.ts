import { readFileSync } from 'node:fs';

/**
 * A text file an admin edits, as UTF-8 without the byte order mark Windows tools put first (PowerShell
 * 5.1's `Set-Content -Encoding UTF8`, Notepad before 2019): JSON.parse refuses one, and in a key file it
 * would become part of the identifier. CRLF line ends need nothing here: JSON takes them as whitespace and
 * the line-based readers split on \r?\n.
 */
export function readTextFile(path: string): string {
  const text = readFileSync(path, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
