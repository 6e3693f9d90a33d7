import { z } from 'zod';

/**
 * Checks downloaded records against the catalogue's record schema. Running zod on each of 200,000
 * records costs about as much as parsing them, so the schema is compiled once into plain predicates
 * (typeof tests and the schema's own regexes) that accept exactly what zod accepts for the field kinds
 * records use. A record the predicate refuses, or a schema with a construct it does not know, goes
 * through zod itself, which stays the judge and names the problem.
 */

export interface RecordProblem {
  /** 0-based position in the dataset. */
  index: number;
  field: string;
  message: string;
}

type Predicate = (v: unknown) => boolean;

const compiled = new WeakMap<z.ZodType, Predicate | null>();

/**
 * Returns the records as the schema gives them (the same objects when the fast check passes; loose
 * schemas keep extra fields either way), or the first problem.
 */
export function checkRecords(
  schema: z.ZodType,
  batch: readonly unknown[],
  firstIndex: number,
): { ok: true; records: Record<string, unknown>[] } | { ok: false; problem: RecordProblem } {
  let fast = compiled.get(schema);
  if (fast === undefined) {
    fast = compileRecord(schema);
    compiled.set(schema, fast);
  }
  const records = new Array<Record<string, unknown>>(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const r = batch[i];
    if (fast?.(r)) {
      records[i] = r as Record<string, unknown>;
      continue;
    }
    const result = schema.safeParse(r);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      return {
        ok: false,
        problem: { index: firstIndex + i, field: fieldPath(issue.path), message: issue.message },
      };
    }
    records[i] = result.data as Record<string, unknown>;
  }
  return { ok: true, records };
}

/** `ControlGuids[2]`, `Reviews[0].Score`; empty for the record itself. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)),
    '',
  );
}

/**
 * The regexes a plain string schema checks, read through zod's public JSON Schema rendering (one
 * `pattern`, or several under `allOf`); null when the schema checks anything else (lengths, formats).
 * Flags are not carried over, which can only make the predicate stricter: zod then decides.
 */
function stringPatterns(schema: z.ZodString): RegExp[] | null {
  if (!schema.def.checks?.length) return [];
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema) as Record<string, unknown>;
  } catch {
    return null;
  }
  const parts = Array.isArray(json.allOf) ? (json.allOf as Record<string, unknown>[]) : [json];
  const patterns: RegExp[] = [];
  for (const part of parts) {
    for (const key of Object.keys(part))
      if (key !== 'type' && key !== 'pattern' && key !== '$schema') return null;
    if (typeof part.pattern === 'string') patterns.push(new RegExp(part.pattern));
  }
  return patterns.length === schema.def.checks.length ? patterns : null;
}

/** A loose object whose fields all compile, or null (then zod checks every record). */
export function compileRecord(schema: z.ZodType): Predicate | null {
  if (!(schema instanceof z.ZodObject)) return null;
  const { catchall, checks } = schema.def;
  if (!(catchall instanceof z.ZodUnknown) || checks?.length) return null;
  const keys: string[] = [];
  const predicates: Predicate[] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    // Reading such a field when it is missing would find Object.prototype's member: leave it to zod.
    if (key in Object.prototype) return null;
    const p = compileField(field);
    if (!p) return null;
    keys.push(key);
    predicates.push(p);
  }
  const n = keys.length;
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    for (let i = 0; i < n; i++) if (!predicates[i]!(o[keys[i]!])) return false;
    return true;
  };
}

function compileField(schema: z.ZodType): Predicate | null {
  if (schema instanceof z.ZodOptional) {
    const inner = compileField(schema.unwrap() as z.ZodType);
    return inner ? (v) => v === undefined || inner(v) : null;
  }
  if (schema instanceof z.ZodNullable) {
    const inner = compileField(schema.unwrap() as z.ZodType);
    return inner ? (v) => v === null || inner(v) : null;
  }
  if (schema instanceof z.ZodString) {
    const patterns = stringPatterns(schema);
    if (!patterns) return null;
    if (patterns.length === 0) return (v) => typeof v === 'string';
    if (patterns.length === 1) {
      const re = patterns[0]!;
      return (v) => typeof v === 'string' && re.test(v);
    }
    return (v) => typeof v === 'string' && patterns.every((re) => re.test(v));
  }
  if (schema instanceof z.ZodNumber)
    return schema.def.checks?.length ? null : (v) => typeof v === 'number' && Number.isFinite(v);
  if (schema instanceof z.ZodBoolean) return (v) => typeof v === 'boolean';
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return () => true;
  if (schema instanceof z.ZodArray) {
    if (schema.def.checks?.length) return null;
    const element = compileField(schema.element as z.ZodType);
    if (!element) return null;
    return (v) => {
      if (!Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
      return true;
    };
  }
  return null;
}
