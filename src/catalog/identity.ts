import { BINDING_FORMAT, BINDING_VERSION, type Binding, type BoundEndpoint } from './binding';
import { DATASETS_AND_OPERATIONS } from './catalog';
import type { Endpoint } from './endpoint';
import { toJsonSchema } from './schema-json';
import { identityMap, type WireShape } from './wire';

/** Only object schemas get a property map; an opaque answer (z.unknown()) is passed through as it comes. */
function shape(schema: Parameters<typeof identityMap>[0] | null): WireShape | undefined {
  if (!schema || toJsonSchema(schema).type !== 'object') return undefined;
  return identityMap(schema);
}

/** The endpoint bound where the catalogue has it, with identity property maps: what importing our own Swagger export gives. */
export function identityBound(e: Endpoint, how: BoundEndpoint['how'] = 'exact'): BoundEndpoint {
  const out: BoundEndpoint = { method: e.method, path: e.path, how, operationId: e.id };
  if (e.kind === 'dataset') out.record = shape(e.record);
  else {
    const body = shape(e.body);
    const answer = shape(e.answer);
    if (body) out.body = body;
    if (answer) out.answer = answer;
  }
  return out;
}

/** A binding of the whole catalogue at its own paths (tests, and the baseline the importer compares with). */
export function identityBinding(file = 'catalogue'): Binding {
  return {
    format: BINDING_FORMAT,
    version: BINDING_VERSION,
    source: {
      file,
      sha256: '',
      spec: 'swagger-2.0',
      basePath: '/api',
      importedAt: new Date(0).toISOString(),
    },
    endpoints: Object.fromEntries(DATASETS_AND_OPERATIONS.map((e) => [e.id, identityBound(e)])),
    ambiguous: {},
    missing: [],
    extraDatasets: [],
  };
}
