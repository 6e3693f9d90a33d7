import { isGuid } from './fields';

export type PathParams = { guid?: string };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** A catalogue path template is literal segments and `{guid}` placeholders, nothing else. */
export function isValidTemplate(path: string): boolean {
  if (!path.startsWith('/')) return false;
  const parts = path.slice(1).split('/');
  return parts.every((p) => p === '{guid}' || SEGMENT.test(p)) && parts.filter((p) => p === '{guid}').length <= 1;
}

/** The spec writes some paths with a leading /api; the base URL already ends in the API root. */
export function normaliseSpecPath(path: string): string {
  return path.replace(/^\/api(?=\/)/, '');
}

export function fillPath(template: string, params: PathParams = {}): string {
  return template.replace('{guid}', () => {
    if (!params.guid || !isGuid(params.guid)) throw new Error(`path ${template} needs a GUID parameter`);
    return params.guid;
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
    if (!SEGMENT.test(seg)) return null;
    out.push(seg);
  }
  return out;
}

/** Matches decoded segments against a template; returns the parameters or null. */
export function matchTemplate(template: string, segments: readonly string[]): PathParams | null {
  const parts = template.slice(1).split('/');
  if (parts.length !== segments.length) return null;
  const params: PathParams = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const s = segments[i]!;
    if (p === '{guid}') {
      if (!isGuid(s)) return null;
      params.guid = s;
    } else if (p !== s) return null;
  }
  return params;
}
