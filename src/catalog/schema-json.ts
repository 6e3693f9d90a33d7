import { z } from 'zod';
import { columnKinds } from './fields';

/**
 * The catalogue's zod schemas as JSON Schema (OpenAPI 3.0 dialect: `nullable`), with the GUID and ISO date
 * regexes turned into the formats a Swagger file uses for them. One rendering shared by the identity binding,
 * the importer (which compares it with the customer's file) and `sandbox --export-swagger`.
 */
export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: unknown;
  anyOf?: JsonSchema[];
  [k: string]: unknown;
}

const GUID_PATTERN = '^[0-9a-fA-F]{8}-';
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}';

export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    unrepresentable: 'any',
    io: 'input',
    override(ctx) {
      const js = ctx.jsonSchema as JsonSchema;
      const kind = columnKinds.get(ctx.zodSchema as unknown as z.ZodType)?.kind;
      const pattern = typeof js.pattern === 'string' ? js.pattern : '';
      if (pattern.startsWith(GUID_PATTERN)) {
        delete js.pattern;
        js.format = 'uuid';
      } else if (pattern.startsWith(DATE_PATTERN)) {
        delete js.pattern;
        js.format = 'date';
      }
      // The column kind sits on the nullable wrapper, the pattern on the string inside it.
      if (kind === 'datetime' && js.format === 'date') js.format = 'date-time';
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The object schema's properties, with `$ref`-free nested schemas; {} for a non-object (e.g. z.unknown()). */
export function objectProperties(js: JsonSchema): Record<string, JsonSchema> {
  return js.type === 'object' && js.properties ? js.properties : {};
}
