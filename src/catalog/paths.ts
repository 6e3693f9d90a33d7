import { isGuid } from './fields';

/**
 * Path parameters by name. A template with one parameter also takes it as `guid` (the catalogue's own
 * `{guid}`), so callers that know one parameter need not know what the customer's file calls it.
 */
export type PathParams = { guid?: string; [name: string]: string | undefined };

/** A parameter's value, and a literal segment: one safe segment. */
const SEGMENT = /^[A-Za-z0-9_.~-]+$/;
/**
 * A Google-style custom method (`/tasks/{id}:advance`, `/tasks:search`): a parameter or a literal, then a
 * colon and the method's name, a literal of the template. A parameter's value never holds a colon, so the
 * suffix can always be told from the value.
 */
const VERB = '(?::[A-Za-z0-9_.~-]+)?';
/**
 * A segment with one parameter: the parameter alone (`{id}`), with a custom method (`{id}:advance`), or
 * inside literal text (asp-versioning's `v{version}` where the file fixes no value for it).
 */
const PARAM = new RegExp(`^[A-Za-z0-9_.~-]*\\{[A-Za-z0-9_.-]+\\}[A-Za-z0-9_.~-]*${VERB}$`);
const LITERAL = new RegExp(`^[A-Za-z0-9_.~-]+${VERB}$`);
/** The literal text before and after a segment's parameter. */
const around = (part: string) => ({ before: part.slice(0, part.indexOf('{')), after: part.slice(part.indexOf('}') + 1) });

/** A path template is literal segments and `{name}` parameters (any number), each perhaps with a custom method's `:verb`. */
export function isValidTemplate(path: string): boolean {
  if (!path.startsWith('/')) return false;
  if (path === '/') return true;
  const parts = path.slice(1).split('/');
  const names = parts.filter((p) => PARAM.test(p)).map((p) => p.slice(p.indexOf('{'), p.indexOf('}') + 1));
  return parts.every((p) => PARAM.test(p) || (LITERAL.test(p) && p !== '.' && p !== '..')) && new Set(names).size === names.length;
}

/** The parameter names of a template, in order. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1]!);
}

/** The spec writes some paths with a leading /api; the base URL already ends in the API root. */
export function normaliseSpecPath(path: string): string {
  return path.replace(/^\/api(?=\/)/, '');
}

export function fillPath(template: string, params: PathParams = {}): string {
  const names = templateParams(template);
  return template.replace(/\{([^}/]+)\}/g, (_, name: string) => {
    const v = params[name] ?? (names.length === 1 ? params.guid : undefined);
    // The catalogue's own {guid} is a GUID; a customer's parameter is any one safe segment.
    if (!v || (name === 'guid' && !isGuid(v)) || !SEGMENT.test(v))
      throw new Error(`path ${template} needs a value for {${name}}`);
    return encodeURIComponent(v);
  });
}

/**
 * Splits a raw request path into decoded segments, refusing anything that could change meaning after
 * decoding: empty segments (`//`), dot segments, and encoded slashes, backslashes, percent signs (double
 * encoding), semicolons and control characters. Returns null when the path is refused.
 */
export function safeSegments(rawPath: string): string[] | null {
  if (!rawPath.startsWith('/')) return null;
  const raw = rawPath.slice(1).split('/');
  const out: string[] = [];
  for (const part of raw) {
    let seg: string;
    try {
      seg = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (!LITERAL.test(seg) || seg === '.' || seg === '..') return null;
    out.push(seg);
  }
  return out;
}

/** Matches decoded segments against a template; returns the parameters or null. */
export function matchTemplate(template: string, segments: readonly string[]): PathParams | null {
  const parts = template.slice(1).split('/');
  if (parts.length !== segments.length) return null;
  const params: PathParams = {};
  let count = 0;
  let only = '';
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const s = segments[i]!;
    if (PARAM.test(p)) {
      // Text around the parameter (a custom method's `:advance`, the `v` of `v{version}`) is literal.
      const { before, after } = around(p);
      if (!s.startsWith(before) || !s.endsWith(after) || s.length <= before.length + after.length) return null;
      const value = s.slice(before.length, s.length - after.length);
      // The catalogue's own {guid} takes GUIDs only; a customer's parameter any safe segment.
      if (!SEGMENT.test(value) || (p === '{guid}' && !isGuid(value))) return null;
      params[p.slice(p.indexOf('{') + 1, p.indexOf('}'))] = value;
      count++;
      only = value;
    } else if (p !== s) return null;
  }
  if (count === 1) params.guid = only;
  return params;
}
