import { z } from 'zod';
import type { BoundOperation } from './placement';

/**
 * A catalogue body schema that also takes the enum values a customer's file lists for a field (globex's
 * notice period unit "Years"): the catalogue's enums are the spec's, and a service may have more. Only
 * values are added, never removed: the spec's values stay valid. The one place a binding widens an enum;
 * the client and the write-back flows both read the widened schema.
 */
export function widenBody(schema: z.ZodType, op: BoundOperation | undefined): z.ZodType {
  if (!op || !(schema instanceof z.ZodObject)) return schema;
  const wider: Record<string, z.ZodType> = {};
  for (const p of op.placements) {
    const e = p.encoding;
    if (e.kind !== 'enum') continue;
    const field = p.field;
    const own = (schema.shape as Record<string, z.ZodType>)[field];
    if (!own) continue;
    const optional = own instanceof z.ZodOptional;
    const inner = optional ? (own as z.ZodOptional<z.ZodType>).unwrap() : own;
    if (!(inner instanceof z.ZodEnum)) continue;
    const known = inner.options as readonly string[];
    // The file's spellings of the catalogue's own values are not more values (they are mapped on the way out).
    const spelled = new Set(Object.values(e.map));
    const more = e.values.filter((v) => !known.includes(v) && !spelled.has(v));
    if (!more.length) continue;
    const widened = z.enum([...known, ...more] as [string, ...string[]]);
    wider[field] = optional ? widened.optional() : widened;
  }
  return Object.keys(wider).length ? schema.extend(wider) : schema;
}

/** The values a field of a widened body takes, or undefined when it is not an enum. */
export function enumValues(schema: z.ZodType | null | undefined, field: string): string[] | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  let f = (schema.shape as Record<string, z.ZodType>)[field];
  if (f instanceof z.ZodOptional) f = (f as z.ZodOptional<z.ZodType>).unwrap();
  return f instanceof z.ZodEnum ? [...(f.options as readonly string[])] : undefined;
}
