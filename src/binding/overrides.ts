import { encoding as encodingSchema, type AnswerPlacement, type Encoding, type FormMedia } from '../catalog';
import { BindingInputError } from './parse';

/**
 * The admin's overrides: plain text, one choice per line, so a diff shows exactly what the admin changed
 * and why (a comment may follow any line after #). Applied by every import, so re-importing a newer file
 * keeps them where the file still supports them (docs/binding.md):
 *
 *   use <catalogue id> = <METHOD> <path> | <operationId>     bind this operation of the file
 *   none <catalogue id>                                      bind nothing (the flow is unavailable; a documented
 *                                                            dataset the file does not list is no longer kept)
 *   place <catalogue id> <field> = body <pointer> [<encoding JSON>]
 *   place <catalogue id> <field> = path|query <name> [<encoding JSON>]
 *   unplace <catalogue id> <field>                           do not send it (its column is not offered)
 *   answer <catalogue id> = body <pointer> | header location
 *   default <catalogue id> <extra column key> = <JSON value>
 *   encode <catalogue id> <field or extra column key> = <JSON object>   change keys of its encoding
 *   form <catalogue id> = urlencoded | multipart | json          how the body is sent
 *   map <catalogue id> <field> "<catalogue value>" = <JSON value>   an enum value by meaning: "Months" = 3
 */
export type Override =
  | { kind: 'use'; id: string; op: string }
  | { kind: 'none'; id: string }
  | { kind: 'place'; id: string; field: string; in: 'body' | 'path' | 'query'; at: string; encoding?: Encoding }
  | { kind: 'unplace'; id: string; field: string }
  | { kind: 'answer'; id: string; answer: AnswerPlacement }
  | { kind: 'default'; id: string; key: string; value: unknown }
  | { kind: 'encode'; id: string; field: string; keys: Record<string, unknown> }
  | { kind: 'form'; id: string; form: FormMedia | 'json' }
  | { kind: 'map'; id: string; field: string; value: string; to: string | number };

export type Line = Override & { line: number; text: string };

const ID = '([a-z0-9][a-z0-9-]*)';

/** Strips a trailing comment: a # outside a JSON string. */
function uncomment(line: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"' && line[i - 1] !== '\\') inString = !inString;
    if (ch === '#' && !inString && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

export function parseOverrides(file: string, text: string): Line[] {
  const out: Line[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = uncomment(raw).trim();
    if (!line) return;
    const n = i + 1;
    const bad = (why: string) => new BindingInputError(`${file}:${n}: ${why}: "${line}" (docs/binding.md, the overrides file)`);
    const at = { line: n, text: line };
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^use ${ID} = (.+)$`).exec(line))) out.push({ kind: 'use', id: m[1]!, op: m[2]!.trim(), ...at });
    else if ((m = new RegExp(`^none ${ID}$`).exec(line))) out.push({ kind: 'none', id: m[1]!, ...at });
    else if ((m = new RegExp(`^form ${ID} = (urlencoded|multipart|json)$`).exec(line)))
      out.push({ kind: 'form', id: m[1]!, form: m[2] as FormMedia | 'json', ...at });
    else if ((m = new RegExp(`^encode ${ID} (\\S+) = (\\{.*\\})$`).exec(line))) {
      let keys: unknown;
      try {
        keys = JSON.parse(m[3]!);
      } catch {
        throw bad('the encoding keys are not a JSON object');
      }
      if (typeof keys !== 'object' || keys === null || Array.isArray(keys) || 'kind' in keys)
        throw bad('give the keys to change as a JSON object without "kind" (a new kind is a place line)');
      out.push({ kind: 'encode', id: m[1]!, field: m[2]!, keys: keys as Record<string, unknown>, ...at });
    } else if ((m = new RegExp(`^unplace ${ID} (\\S+)$`).exec(line))) out.push({ kind: 'unplace', id: m[1]!, field: m[2]!, ...at });
    else if ((m = new RegExp(`^answer ${ID} = (?:body (\\S*)|header location)$`).exec(line))) {
      const answer: AnswerPlacement = m[2] !== undefined ? { in: 'body', at: m[2] } : { in: 'header', at: 'location' };
      if (answer.in === 'body' && answer.at !== '' && !answer.at.startsWith('/')) throw bad('a body pointer starts with /');
      out.push({ kind: 'answer', id: m[1]!, answer, ...at });
    } else if ((m = new RegExp(`^default ${ID} (\\S+) = (.+)$`).exec(line))) {
      let value: unknown;
      try {
        value = JSON.parse(m[3]!);
      } catch {
        throw bad('the default is not a JSON value (text goes in double quotes)');
      }
      out.push({ kind: 'default', id: m[1]!, key: m[2]!, value, ...at });
    } else if ((m = new RegExp(`^map ${ID} (\\S+) ("(?:[^"\\\\]|\\\\.)*") = (.+)$`).exec(line))) {
      let value: unknown;
      let to: unknown;
      try {
        value = JSON.parse(m[3]!);
        to = JSON.parse(m[4]!);
      } catch {
        throw bad('the values are JSON: the catalogue value in double quotes, the file\'s value as the file writes it (3 or "MONTHS")');
      }
      if (typeof value !== 'string' || (typeof to !== 'string' && typeof to !== 'number'))
        throw bad('the catalogue value is text in double quotes, the file\'s value a number or text');
      out.push({ kind: 'map', id: m[1]!, field: m[2]!, value, to, ...at });
    } else if ((m = new RegExp(`^place ${ID} (\\S+) = (body|path|query) (\\S+)(?: (\\{.*\\}))?$`).exec(line))) {
      let enc: Encoding | undefined;
      if (m[5]) {
        let json: unknown;
        try {
          json = JSON.parse(m[5]);
        } catch {
          throw bad('the encoding is not JSON');
        }
        const parsed = encodingSchema.safeParse(json);
        if (!parsed.success) throw bad(`not an encoding (${parsed.error.issues[0]!.message})`);
        enc = parsed.data;
      }
      const where = m[3] as 'body' | 'path' | 'query';
      if (where === 'body' && !m[4]!.startsWith('/')) throw bad('a body pointer starts with /');
      out.push({ kind: 'place', id: m[1]!, field: m[2]!, in: where, at: m[4]!, ...(enc ? { encoding: enc } : {}), ...at });
    } else throw bad('not an overrides line');
  });
  return out;
}
