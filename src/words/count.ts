/**
 * A count with its noun, as every part words it: "1 row", "2 rows", "1,234 entries" (grouped as en-US,
 * the language of every message). One home, so no message says "1 rows".
 */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
