import { z } from 'zod';

/**
 * A fast yes for a row's body against its operation's schema, for validation's 10,000 rows: the schema's
 * own fields, checked one by one, with the values each field already accepted remembered (most columns
 * repeat a few names, GUIDs and dates). It only ever says "passes": where it cannot tell, or a field
 * fails, the caller parses the whole body with the schema, so every refusal keeps zod's words and order.
 *
 * "Passes" is exact for a plain object schema (no checks of its own, no catchall): zod accepts the body
 * when each field's schema accepts its value and every absent field is optional in and out
 * (zod/v4/core schemas, handlePropertyResult).
 */
export function passesByField(schema: z.ZodType, body: unknown): boolean {
  const plan = planOf(schema);
  if (!plan || typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const input = body as Record<string, unknown>;
  for (const f of plan) {
    if (!(f.key in input)) {
      if (f.absentOk) continue;
      return false;
    }
    const v = input[f.key];
    const scalar = isScalar(v);
    const list = scalar ? undefined : listKey(v);
    if (scalar ? f.scalars.has(v) : list !== undefined && f.lists.has(list)) continue;
    if (!f.schema.safeParse(v).success) return false;
    if (scalar && f.scalars.size < MEMO_LIMIT) f.scalars.add(v);
    else if (list !== undefined && f.lists.size < MEMO_LIMIT) f.lists.add(list);
  }
  return true;
}

interface FieldPlan {
  key: string;
  schema: z.ZodType;
  /** Absent, the field adds nothing to zod's result (optional in and out). */
  absentOk: boolean;
  /** Values the field's schema accepted: scalars as they are, lists of texts by their JSON. */
  scalars: Set<unknown>;
  lists: Set<string>;
}

/** Enough for a column's names, GUIDs and dates; a column of unique text stops being remembered here. */
const MEMO_LIMIT = 1_000;

/**
 * Where a value is remembered: a scalar stands for itself (not -0, which a set takes for 0), a list of texts
 * by its JSON (unambiguous for strings); anything else is parsed every time. The catalogue's schemas are
 * pure: a value accepted once is accepted again.
 */
const isScalar = (v: unknown): boolean =>
  v === undefined || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Object.is(v, -0));

function listKey(v: unknown): string | undefined {
  if (!Array.isArray(v)) return undefined;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return undefined;
  return JSON.stringify(v);
}

const plans = new WeakMap<z.ZodType, FieldPlan[] | null>();

function planOf(schema: z.ZodType): FieldPlan[] | null {
  let plan = plans.get(schema);
  if (plan !== undefined) return plan;
  plan = null;
  if (schema instanceof z.ZodObject) {
    const def = schema._zod.def;
    if (!def.catchall && !def.checks?.length)
      plan = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, s]) => ({
        key,
        schema: s,
        absentOk: s._zod.optin === 'optional' && s._zod.optout === 'optional',
        scalars: new Set<unknown>(),
        lists: new Set<string>(),
      }));
  }
  plans.set(schema, plan);
  return plan;
}
