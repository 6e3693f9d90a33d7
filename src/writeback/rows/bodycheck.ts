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
  for (let i = 0; i < plan.length; i++) {
    const f = plan[i]!;
    if (!(f.key in input)) {
      if (f.absentOk) continue;
      return false;
    }
    const v = input[f.key];
    if (v === undefined && f.undefinedOk) continue;
    if (f.anyText && typeof v === 'string') continue;
    if (f.items && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!accepts(f.items, v[i])) return false;
      continue;
    }
    if (!accepts(f.whole, v)) return false;
  }
  return true;
}

interface FieldPlan {
  key: string;
  /** Absent, the field adds nothing to zod's result (optional in and out). */
  absentOk: boolean;
  /** A bare .optional(): undefined passes, any other value is the inner schema's (zod $ZodOptional; not exactOptional). */
  undefinedOk: boolean;
  /**
   * The field is plain text (z.string(), optional or not, without checks, coercion or format): zod takes any
   * string as it is, so a name or description that differs on every row is not parsed.
   */
  anyText: boolean;
  /** The field's value as a whole. */
  whole: Memo;
  /**
   * The field is an array without checks of its own: zod takes an array when it takes each item, so items
   * are remembered one by one (a row's custom field answers share most answers with other rows).
   */
  items?: Memo;
}

/**
 * A schema and the values it accepted: scalars as they are, flat records and lists of them by their JSON, and
 * frozen flat records by identity (a custom field answer read once and shared by the rows that repeat it,
 * flows/customfields.ts): such a record cannot change, so it is accepted again without its JSON.
 */
interface Memo {
  schema: z.core.$ZodType;
  scalars: Set<unknown>;
  keys: Set<string>;
  frozen: WeakSet<object>;
}

/** Enough for a column's names, GUIDs and dates; a column of unique text stops being remembered here. */
const MEMO_LIMIT = 1_000;

function accepts(m: Memo, v: unknown): boolean {
  if (isScalar(v)) {
    if (m.scalars.has(v)) return true;
    if (!z.safeParse(m.schema, v).success) return false;
    if (m.scalars.size < MEMO_LIMIT) m.scalars.add(v);
    return true;
  }
  if (typeof v === 'object' && v !== null && m.frozen.has(v)) return true;
  const key = keyOf(v);
  if (key === undefined || !m.keys.has(key)) {
    if (!z.safeParse(m.schema, v).success) return false;
    if (key !== undefined && m.keys.size < MEMO_LIMIT) m.keys.add(key);
  }
  // A frozen flat record cannot change: known by identity from now on.
  if (key !== undefined && !Array.isArray(v) && Object.isFrozen(v)) m.frozen.add(v as object);
  return true;
}

/**
 * Where a value is remembered: a scalar stands for itself (not -0, which a set takes for 0); a flat record (a
 * custom field answer) or a list of texts and flat records by its JSON, which tells them apart exactly when
 * every value in them is a text, a boolean or a finite number other than -0 (JSON writes NaN as null and -0
 * as 0) and no record holds undefined (JSON drops it); anything else is parsed every time. The catalogue's
 * schemas are pure: a value accepted once is accepted again.
 */
const isScalar = (v: unknown): boolean =>
  v === undefined || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Object.is(v, -0));

const isFlatValue = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0));

function isFlatRecord(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) if (!isFlatValue((v as Record<string, unknown>)[k])) return false;
  return true;
}

function keyOf(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string' && !isFlatRecord(v[i])) return undefined;
  } else if (!isFlatRecord(v)) return undefined;
  return JSON.stringify(v);
}

const plans = new WeakMap<z.ZodType, FieldPlan[] | null>();

const memo = (schema: z.core.$ZodType): Memo => ({ schema, scalars: new Set(), keys: new Set(), frozen: new WeakSet() });

function planOf(schema: z.ZodType): FieldPlan[] | null {
  let plan = plans.get(schema);
  if (plan !== undefined) return plan;
  plan = null;
  if (schema instanceof z.ZodObject) {
    const def = schema._zod.def;
    if (!def.catchall && !def.checks?.length)
      plan = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, s]) => {
        const undefinedOk =
          s._zod.def.type === 'optional' &&
          !s._zod.traits.has('$ZodExactOptional') &&
          !hasChecks(s) &&
          (s as z.ZodOptional).unwrap()._zod.optin !== 'defaulted';
        const inner = undefinedOk ? (s as z.ZodOptional).unwrap() : s;
        const array = inner._zod.def.type === 'array' && !hasChecks(inner) ? (inner as z.ZodArray) : undefined;
        return {
          key,
          absentOk: s._zod.optin === 'optional' && s._zod.optout === 'optional',
          undefinedOk,
          anyText: isPlainText(inner),
          whole: memo(s),
          ...(array ? { items: memo(array.element) } : {}),
        };
      });
  }
  plans.set(schema, plan);
  return plan;
}

const hasChecks = (s: z.core.$ZodType): boolean => !!s._zod.def.checks?.length || s._zod.traits.has('$ZodCheck');

/** z.string() itself: its parse is `typeof value === 'string'` (zod/v4/core schemas, $ZodString). */
function isPlainText(s: z.core.$ZodType): boolean {
  const def = s._zod.def as z.core.$ZodStringDef;
  return def.type === 'string' && !hasChecks(s) && !def.coerce && !('format' in def);
}
