import type { ErrorObject } from 'ajv';
import type { Problem } from '../errors';
import type { FileOperation } from './document';

/**
 * A request body against the customer's own schema for the operation (ajv): the problems in the service's 400
 * shape, each naming the property by its place in the file's body (`data.reportingOrganisation.id`).
 */
export function checkBody(op: FileOperation, body: unknown): Problem[] {
  if (body === undefined)
    return op.bodyRequired ? [{ field: '(body)', message: 'The request body is required.' }] : [];
  const check = op.checkBody?.();
  if (!check || check(body)) return [];
  return problemsOf(check.errors ?? []);
}

/** A query string's values read as the types the file gives its parameters, then checked; missing required ones named. */
export function checkQuery(op: FileOperation, query: URLSearchParams): Problem[] {
  const problems: Problem[] = [];
  for (const q of op.query) {
    const raw = query.getAll(q.name);
    if (!raw.length) {
      if (q.required) problems.push({ field: q.name, message: 'The query parameter is required.' });
      continue;
    }
    const value = q.type === 'array' ? raw.flatMap((r) => r.split(',')) : typed(raw[0]!, q.type);
    const check = q.check();
    if (!check(value)) problems.push(...problemsOf(check.errors ?? []).map((p) => ({ ...p, field: q.name })));
  }
  return problems;
}

function typed(text: string, type: string): unknown {
  if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (type === 'boolean' && /^(true|false)$/.test(text)) return text === 'true';
  return text;
}

const fieldOf = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

/**
 * ajv errors -> one problem per property. A oneOf/anyOf that matched no alternative is one problem at its
 * place (the errors of each alternative inside it are noise to the caller); required is reported at the
 * missing property; a property the file marks readOnly is refused by name.
 */
export function problemsOf(errors: readonly ErrorObject[]): Problem[] {
  const choices = errors
    .filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')
    .map((e) => e.instancePath);
  const inChoice = (e: ErrorObject) =>
    e.keyword !== 'oneOf' &&
    e.keyword !== 'anyOf' &&
    choices.some((c) => e.instancePath === c || e.instancePath.startsWith(`${c}/`));
  const out = new Map<string, Problem>();
  for (const e of errors) {
    if (inChoice(e)) continue;
    const problem = problemOf(e);
    const key = `${problem.field}\u0000${problem.message}`;
    if (!out.has(key)) out.set(key, problem);
  }
  return [...out.values()];
}

function problemOf(e: ErrorObject): Problem {
  const field = fieldOf(e.instancePath);
  const at = (f: string) => (field ? `${field}.${f}` : f) || '(body)';
  switch (e.keyword) {
    case 'required':
      return {
        field: at(String((e.params as { missingProperty: string }).missingProperty)),
        message: 'The field is required.',
      };
    case 'false schema':
      return {
        field: field || '(body)',
        message: 'The property is read-only: the service sets it, so it may not be sent.',
      };
    case 'additionalProperties':
      return {
        field: at(String((e.params as { additionalProperty: string }).additionalProperty)),
        message: 'The property is not part of this body.',
      };
    case 'format':
      return {
        field: field || '(body)',
        message: `The value is not a valid ${String((e.params as { format: string }).format)}.`,
      };
    case 'enum':
      return {
        field: field || '(body)',
        message: `The value must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map(String).join(', ')}.`,
      };
    case 'oneOf':
    case 'anyOf':
      return {
        field: field || '(body)',
        message: `The value matches none of the shapes the API file allows here (${e.keyword}).`,
      };
    default:
      return { field: field || '(body)', message: `The value ${e.message ?? 'is not valid'}.` };
  }
}
