/**
 * What each value of a file's enum means, where the file says it: Swashbuckle and System.Text.Json write
 * integer enums (`{"type": "integer", "enum": [0, 1, 2, 3]}`) whose meaning is only in the description (an
 * XML comment: "0 = None, 1 = Days", "0: None", "None = 0", an HTML list); NSwag adds `x-enumNames`,
 * openapi-generator reads `x-enum-varnames`, Azure's files `x-ms-enum.values[{value, name}]`. The result maps
 * each value, as text, to its name; undefined where the file names none of them. Never a guess: a value the
 * file does not name stays unnamed, and the import reports the fields whose values it cannot read.
 */
type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function fromList(values: readonly unknown[], names: unknown): Record<string, string> | undefined {
  if (!Array.isArray(names) || names.length !== values.length) return undefined;
  const out: Record<string, string> = {};
  values.forEach((v, i) => {
    const n = names[i];
    if (typeof n === 'string' && n.trim()) out[String(v)] = n.trim();
  });
  return Object.keys(out).length ? out : undefined;
}

function fromMsEnum(values: readonly unknown[], x: unknown): Record<string, string> | undefined {
  if (!isObj(x) || !Array.isArray(x.values)) return undefined;
  const out: Record<string, string> = {};
  for (const entry of x.values) {
    if (!isObj(entry) || entry.value === undefined || entry.value === null) continue;
    const name = typeof entry.name === 'string' && entry.name.trim() ? entry.name.trim() : undefined;
    if (name && values.some((v) => String(v) === String(entry.value))) out[String(entry.value)] = name;
  }
  return Object.keys(out).length ? out : undefined;
}

const NAME = '([A-Za-z][A-Za-z0-9_]*(?: [A-Za-z][A-Za-z0-9_]*)*)';
const SEP = '\\s*(?:=>|->|=|:|-|–|—)\\s*';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * "0 = None", "0: None", "0 - None", "None = 0", "None (0)": one pair per line, list item, comma or
 * semicolon. A name is words; what follows it in parentheses or after a dash is its explanation. The
 * value-first form is read anywhere in a line ("Unit: 0 = None"), the name-first forms only from a line's
 * start, so the line's own title is never taken for a name.
 */
function fromDescription(values: readonly unknown[], description: unknown): Record<string, string> | undefined {
  if (typeof description !== 'string' || !values.length) return undefined;
  const text = description
    .replace(/<\/?(?:li|p|br|ul|ol|para|item|list|description|term)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ');
  const known = values.map(String);
  const value = `(${known.map(escape).sort((a, b) => b.length - a.length).join('|')})`;
  const out: Record<string, string> = {};
  const pieces = text.split(/[\n,;]|\s\|\s/).map((p) => p.trim().replace(/^[-*•]\s*/, ''));
  for (const piece of pieces) {
    const m = new RegExp(`(?:^|[\\s(\\[])${value}${SEP}${NAME}`).exec(piece);
    if (m && out[m[1]!] === undefined) out[m[1]!] = m[2]!.trim();
  }
  if (Object.keys(out).length) return out;
  for (const piece of pieces) {
    const m = new RegExp(`^${NAME}${SEP}${value}$`).exec(piece) ?? new RegExp(`^${NAME}\\s*\\(${value}\\)`).exec(piece);
    if (m && out[m[2]!] === undefined) out[m[2]!] = m[1]!.trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/** Short codes ("M", "D") are not names of their own; words ("MONTHS") are. */
const isCode = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v.length <= 3);

/** The names the file gives its enum values (value as text -> name), or undefined. */
export function enumNames(raw: Raw, values: readonly unknown[] | undefined): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  return (
    fromList(values, raw['x-enumNames']) ??
    fromList(values, raw['x-enum-varnames']) ??
    fromMsEnum(values, raw['x-ms-enum']) ??
    (values.every(isCode) ? fromDescription(values, raw.description) : undefined)
  );
}
