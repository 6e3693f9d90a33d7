/**
 * Dates in a file's own pattern, as .NET and Java write patterns: "dd-MM-yyyy", "dd/MM/yyyy HH:mm",
 * "yyyy-MM-dd'T'HH:mm:ss". Tokens: yyyy, yy, MM, M, dd, d, HH, H, mm, ss, fff (milliseconds); text in single
 * quotes and any other character stand for themselves. Pure: the encoder writes with it, the bound sandbox
 * and dataset decoding read with it.
 */

type Token = { part: 'y4' | 'y2' | 'M2' | 'M1' | 'd2' | 'd1' | 'H2' | 'H1' | 'm2' | 's2' | 'f3' } | { text: string };

const TOKENS: [string, Token & { part: string }][] = [
  ['yyyy', { part: 'y4' }],
  ['yy', { part: 'y2' }],
  ['MM', { part: 'M2' }],
  ['M', { part: 'M1' }],
  ['dd', { part: 'd2' }],
  ['d', { part: 'd1' }],
  ['HH', { part: 'H2' }],
  ['H', { part: 'H1' }],
  ['mm', { part: 'm2' }],
  ['ss', { part: 's2' }],
  ['fff', { part: 'f3' }],
];

function tokens(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; ) {
    if (pattern[i] === "'") {
      const end = pattern.indexOf("'", i + 1);
      const text = pattern.slice(i + 1, end < 0 ? undefined : end);
      out.push({ text: text === '' ? "'" : text });
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    const hit = TOKENS.find(([t]) => pattern.startsWith(t, i));
    if (hit) {
      out.push(hit[1]);
      i += hit[0].length;
    } else {
      out.push({ text: pattern[i]! });
      i++;
    }
  }
  return out;
}

const pad = (n: string, width: number) => n.padStart(width, '0');

/** An ISO date or date-time (yyyy-mm-dd[Thh:mm[:ss[.fff]]]) in the pattern. */
export function formatDate(iso: string, pattern: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?/.exec(iso.trim());
  if (!m) return iso;
  const [, y, mo, d, h = '00', mi = '00', s = '00', f = '000'] = m;
  const parts: Record<string, string> = {
    y4: y!,
    y2: y!.slice(2),
    M2: mo!,
    M1: String(Number(mo)),
    d2: d!,
    d1: String(Number(d)),
    H2: h,
    H1: String(Number(h)),
    m2: mi,
    s2: s,
    f3: f.padEnd(3, '0'),
  };
  return tokens(pattern)
    .map((t) => ('text' in t ? t.text : parts[t.part]!))
    .join('');
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PART_RE: Record<string, string> = {
  y4: '(\\d{4})',
  y2: '(\\d{2})',
  M2: '(\\d{2})',
  M1: '(\\d{1,2})',
  d2: '(\\d{2})',
  d1: '(\\d{1,2})',
  H2: '(\\d{2})',
  H1: '(\\d{1,2})',
  m2: '(\\d{2})',
  s2: '(\\d{2})',
  f3: '(\\d{3})',
};

/**
 * Text in the pattern -> the ISO date (yyyy-mm-dd), or date-time (yyyy-mm-ddThh:mm:ss) where the pattern
 * has a time; undefined when the text does not follow the pattern or is no real date.
 */
export function parseDate(text: string, pattern: string): string | undefined {
  const ts = tokens(pattern);
  const parts = ts.flatMap((t) => ('text' in t ? [] : [t.part]));
  const re = new RegExp(`^${ts.map((t) => ('text' in t ? escapeRe(t.text) : PART_RE[t.part])).join('')}$`);
  const m = re.exec(text.trim());
  if (!m) return undefined;
  const got: Record<string, string> = {};
  parts.forEach((p, i) => (got[p] = m[i + 1]!));
  const year = got.y4 ?? (got.y2 !== undefined ? `20${got.y2}` : undefined);
  const month = got.M2 ?? got.M1;
  const day = got.d2 ?? got.d1;
  if (!year || !month || !day) return undefined;
  const date = `${year}-${pad(month, 2)}-${pad(day, 2)}`;
  const check = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== date) return undefined;
  const hour = got.H2 ?? got.H1;
  if (hour === undefined) return date;
  return `${date}T${pad(hour, 2)}:${got.m2 ?? '00'}:${got.s2 ?? '00'}`;
}

/** Whether the pattern writes a time of day. */
export const patternHasTime = (pattern: string): boolean =>
  tokens(pattern).some((t) => !('text' in t) && /^[Hmsf]/.test(t.part));

/**
 * A date pattern a description or a format gives in words: "Date in dd-MM-yyyy format", "format:
 * dd/MM/yyyy", "(yyyyMMdd)", "dd.MM.yyyy HH:mm". The ISO forms (yyyy-MM-dd, with or without a time) are not a
 * pattern of the file's own: undefined for those, and where no pattern is written.
 */
export function patternIn(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const m = /(?:^|[\s(:"'`])((?:yyyy|yy|dd?|MM?)(?:[-/. ]?(?:yyyy|yy|MM?|dd?))+(?:(?:[ T]|'T')HH?(?::mm(?::ss(?:\.fff)?)?)?)?)(?=$|[\s),.;:"'`])/.exec(text);
  if (!m) return undefined;
  const p = m[1]!;
  if (!/y/.test(p) || !/M/.test(p) || !/d/.test(p)) return undefined;
  if (/^yyyy-MM-dd(?:(?:T|'T')HH:mm(?::ss)?)?$/.test(p)) return undefined;
  return p;
}
