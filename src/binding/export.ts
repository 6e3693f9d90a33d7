import {
  catalog as defaultCatalog,
  toJsonSchema,
  type Catalog,
  type Endpoint,
  type JsonSchema,
} from '../catalog';

/**
 * The catalogue's own assumptions as a Swagger 2.0 file (`grc-sheets sandbox --export-swagger`): every dataset
 * and operation at the path the catalogue has, with definitions for bodies, records and answers. Importing it
 * binds every endpoint exactly with identity property maps (the round-trip test).
 */

const defName = (id: string, suffix: string) =>
  id
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('') + suffix;

/** OpenAPI 3.0 JSON Schema -> Swagger 2.0 schema object: no nullable (x-nullable), no anyOf, no {} for "anything". */
function toSwagger2(js: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(js)) {
    if (k === 'nullable') out['x-nullable'] = v;
    else if (k === 'anyOf') out.description = 'string, number or boolean';
    else if (k === 'additionalProperties') continue;
    else if (k === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, JsonSchema>).map(([p, s]) => [p, toSwagger2(s)]),
      );
    } else if (k === 'items') out.items = toSwagger2(v as JsonSchema);
    else out[k] = v;
  }
  return out;
}

function operationOf(e: Endpoint, definitions: Record<string, JsonSchema>): Record<string, unknown> {
  const parameters: unknown[] = [];
  if (e.path.includes('{guid}'))
    parameters.push({ name: 'guid', in: 'path', required: true, type: 'string', format: 'uuid' });
  const responses: Record<string, unknown> = {};
  if (e.kind === 'dataset') {
    const name = defName(e.id, 'Record');
    definitions[name] = toSwagger2(toJsonSchema(e.record));
    responses['200'] = {
      description: e.title,
      schema: { type: 'array', items: { $ref: `#/definitions/${name}` } },
    };
  } else {
    if (e.body) {
      const name = defName(e.id, 'Body');
      definitions[name] = toSwagger2(toJsonSchema(e.body));
      parameters.push({
        name: 'body',
        in: 'body',
        required: true,
        schema: { $ref: `#/definitions/${name}` },
      });
    }
    const answer = toJsonSchema(e.answer);
    if (answer.type === 'object') {
      const name = defName(e.id, 'Answer');
      definitions[name] = toSwagger2(answer);
      responses['200'] = { description: 'OK', schema: { $ref: `#/definitions/${name}` } };
    } else responses['200'] = { description: 'OK' };
  }
  return {
    operationId: e.id,
    summary: e.title,
    description: e.description,
    tags: [e.area],
    'x-grc-documented': e.documented,
    ...(e.kind === 'operation' && e.body ? { consumes: ['application/json'] } : {}),
    produces: ['application/json'],
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
}

export function exportSwagger(catalog: Catalog = defaultCatalog): Record<string, unknown> {
  const definitions: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of catalog.endpoints) {
    if (e.unavailable) continue;
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operationOf(e, definitions);
  }
  return {
    swagger: '2.0',
    info: {
      title: 'grc-sheets catalogue (assumptions where the spec does not show a path or a property name)',
      version: '1',
    },
    // The environment base URL ends in the API root /api; the catalogue's paths are below it.
    basePath: '/api',
    schemes: ['https'],
    securityDefinitions: { bearer: { type: 'apiKey', name: 'Authorization', in: 'header' } },
    security: [{ bearer: [] }],
    paths,
    definitions,
  };
}
