/**
 * Known names ordered by how close they are to what was typed, for messages that offer them: a typo's
 * intended name comes first. Closeness is the edit distance of the lower-cased names, with names that
 * contain the text (or share its first three letters) ahead of the rest.
 */
export function closestFirst(text: string, names: readonly string[]): string[] {
  const t = text.trim().toLowerCase();
  const scored = [...new Set(names)].map((name) => {
    const n = name.toLowerCase();
    const related = n.includes(t) || t.includes(n) || (t.length >= 3 && n.slice(0, 3) === t.slice(0, 3));
    return { name, related, distance: editDistance(t, n) };
  });
  scored.sort((a, b) => Number(b.related) - Number(a.related) || a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.map((s) => s.name);
}

/** Names close enough to be the one meant: related, or at most a third of the text's letters away. */
export function likelyMeant(text: string, names: readonly string[], limit = 3): string[] {
  const t = text.trim().toLowerCase();
  if (!t) return [];
  return closestFirst(text, names)
    .filter((name) => {
      const n = name.toLowerCase();
      return n.includes(t) || t.includes(n) || (t.length >= 3 && n.slice(0, 3) === t.slice(0, 3)) || editDistance(t, n) <= Math.max(2, Math.floor(t.length / 3));
    })
    .slice(0, limit);
}

/** "; did you mean "A"? Known: A, B, C and 4 more" (closest first), or "; none is known" for an empty list. */
export function offerNames(text: string, names: readonly string[], shown = 8): string {
  if (names.length === 0) return '; none is known in this environment';
  const meant = likelyMeant(text, names);
  const all = closestFirst(text, names);
  const list = all.slice(0, shown).join(', ') + (all.length > shown ? ` and ${all.length - shown} more` : '');
  const guess = meant.length ? `; did you mean ${meant.map((m) => `"${m}"`).join(' or ')}?` : '';
  return `${guess}${guess ? ' Known' : '; known'}: ${list}`;
}

/** Edits (insert, delete, replace a letter) from a to b; callers lower-case first to ignore case. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
