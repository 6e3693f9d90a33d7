/**
 * A customer's API file speaks one of three schema dialects; ajv speaks JSON Schema. This turns the schemas of
 * a whole document into JSON Schema for one direction (a request the service receives, or an answer it sends),
 * keeping the document's layout so its internal `$ref`s still point at the right place.
 *
 * - Swagger 2.0 and OpenAPI 3.0 are draft-04-like: `nullable: true` (3.0) and `x-nullable: true` (2.0) become
 *   a type array or an anyOf with null; boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers.
 * - OpenAPI 3.1 is JSON Schema 2020-12 already (type arrays, `const`, `$defs`): only readOnly/writeOnly change.
 * - readOnly properties are the service's to set: in a request they are not required and, when sent, refused
 *   (the schema `false`), because a service that ignores them would drop what the caller meant to set.
 *   writeOnly properties are the same in an answer.
 */
export type Spec = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';
export type Direction = 'request' | 'answer';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords whose value is one schema. */
const ONE = [
  'additionalProperties',
  'not',
  'items',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
/** Keywords whose value is a list of schemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'];

export function convertSchema(schema: unknown, spec: Spec, direction: Direction): unknown {
  if (!isObj(schema)) return schema;
  const out: Obj = { ...schema };
  for (const k of ONE) if (isObj(out[k])) out[k] = convertSchema(out[k], spec, direction);
  for (const k of LIST)
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((s) => convertSchema(s, spec, direction));
  for (const k of MAP)
    if (isObj(out[k]))
      out[k] = Object.fromEntries(
        Object.entries(out[k] as Obj).map(([n, s]) => [n, convertSchema(s, spec, direction)]),
      );
  hideOneWay(out, direction);
  if (spec === 'openapi-3.1') return out;
  if (out.exclusiveMinimum === true && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (typeof out.exclusiveMinimum === 'boolean') delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (typeof out.exclusiveMaximum === 'boolean') delete out.exclusiveMaximum;
  if (out.type === 'file') out.type = 'string';
  const nullable = spec === 'openapi-3.0' ? out.nullable === true : out['x-nullable'] === true;
  delete out.nullable;
  delete out['x-nullable'];
  return nullable ? allowNull(out) : out;
}

function allowNull(s: Obj): Obj {
  if (typeof s.type === 'string' && !s.$ref && !s.allOf && !s.anyOf && !s.oneOf) {
    const out: Obj = { ...s, type: [s.type, 'null'] };
    if (Array.isArray(s.enum) && !s.enum.includes(null)) out.enum = [...(s.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [s, { type: 'null' }] };
}

/** readOnly properties in a request, writeOnly ones in an answer: not required, and refused when present. */
function hideOneWay(s: Obj, direction: Direction): void {
  if (!isObj(s.properties)) return;
  const flag = direction === 'request' ? 'readOnly' : 'writeOnly';
  const hidden = Object.entries(s.properties)
    .filter(([, p]) => isObj(p) && p[flag] === true)
    .map(([n]) => n);
  if (!hidden.length) return;
  s.properties = { ...s.properties, ...Object.fromEntries(hidden.map((n) => [n, false])) };
  if (Array.isArray(s.required)) s.required = (s.required as string[]).filter((n) => !hidden.includes(n));
}

/**
 * The whole document with every schema converted. Schemas sit under `definitions` (2.0), under
 * `components.schemas` (3.x), and wherever a `schema` member is (parameters, request bodies, answers, headers).
 */
export function convertDocument(doc: Obj, spec: Spec, direction: Direction): Obj {
  const walk = (node: unknown, key?: string, parent?: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n));
    if (!isObj(node)) return node;
    if (key === 'schema') return convertSchema(node, spec, direction);
    if ((key === 'definitions' && parent === undefined) || (key === 'schemas' && parent === 'components'))
      return Object.fromEntries(Object.entries(node).map(([n, s]) => [n, convertSchema(s, spec, direction)]));
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k, key)]));
  };
  return walk(doc) as Obj;
}
