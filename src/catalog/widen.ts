import { z } from 'zod';
import type { BoundOperation, Encoding } from './placement';

/**
 * The values a user may type for an enum field the binding encodes: the catalogue's own, then the values only
 * the file has, by their names where the file names them (Swashbuckle's integer 4 documented as "4 = Years"
 * is offered as "Years"), else as the file spells them. The file's spellings of the catalogue's own values are
 * not more values (they are mapped on the way out).
 */
export function offeredValues(known: readonly string[], e: Encoding): string[] {
  if (e.kind !== 'enum' && e.kind !== 'number-unit') return [...known];
  const map = e.kind === 'enum' ? e.map : e.units;
  const values = e.kind === 'enum' ? e.values : Object.values(e.units);
  const spelled = new Set(Object.values(map));
  const named = Object.keys(map).filter((k) => !known.includes(k));
  const bare = values.filter((v) => !known.includes(v) && !spelled.has(v));
  return [...known, ...named, ...bare];
}

/**
 * A catalogue body schema that also takes the enum values a customer's file lists for a field (globex's
 * notice period unit "Years"): the catalogue's enums are the spec's, and a service may have more. Only
 * values are added, never removed: the spec's values stay valid. The one place a binding widens an enum;
 * the client and the write-back flows both read the widened schema. The body's own refinements (a task's
 * "give a score, a comment or a status") are kept: `safeExtend`.
 */
export function widenBody(schema: z.ZodType, op: BoundOperation | undefined): z.ZodType {
  if (!op || !(schema instanceof z.ZodObject)) return schema;
  const wider: Record<string, z.ZodType> = {};
  const widen = (field: string, e: Encoding) => {
    const own = (schema.shape as Record<string, z.ZodType>)[field];
    if (!own) return;
    const optional = own instanceof z.ZodOptional;
    const inner = optional ? (own as z.ZodOptional<z.ZodType>).unwrap() : own;
    if (!(inner instanceof z.ZodEnum)) return;
    const known = inner.options as readonly string[];
    const all = offeredValues(known, e);
    if (all.length === known.length) return;
    const widened = z.enum(all as [string, ...string[]]);
    wider[field] = optional ? widened.optional() : widened;
  };
  for (const p of op.placements) {
    if (p.encoding.kind === 'enum') widen(p.field, p.encoding);
    // The unit of a number joined with it (NoticePeriodUnit) has no placement of its own.
    if (p.encoding.kind === 'number-unit') widen(p.encoding.unitField, p.encoding);
  }
  if (!Object.keys(wider).length) return schema;
  try {
    return (schema as z.ZodObject<z.ZodRawShape>).safeExtend(wider);
  } catch (err) {
    throw new Error(`cannot widen ${Object.keys(wider).join(', ')}: ${(err as Error).message}`);
  }
}

/** The values a field of a widened body takes, or undefined when it is not an enum. */
export function enumValues(schema: z.ZodType | null | undefined, field: string): string[] | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  let f = (schema.shape as Record<string, z.ZodType>)[field];
  if (f instanceof z.ZodOptional) f = (f as z.ZodOptional<z.ZodType>).unwrap();
  return f instanceof z.ZodEnum ? [...(f.options as readonly string[])] : undefined;
}
