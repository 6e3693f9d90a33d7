import { BINDING_FORMAT, BINDING_VERSION, type Binding } from './binding';
import { DATASETS_AND_OPERATIONS } from './catalog';
import type { Endpoint } from './endpoint';
import { templateParams } from './paths';
import { escapePointer } from './pointer';
import { PATH_GUID_FIELD, type BoundEndpoint, type Placement } from './placement';
import { objectProperties, toJsonSchema } from './schema-json';

const plainAt = (field: string): Placement => ({
  field,
  in: 'body',
  at: `/${escapePointer(field)}`,
  fileName: field,
  encoding: { kind: 'plain' },
  how: 'exact',
});

function pathPlacements(path: string): Placement[] {
  return templateParams(path).map((name) => ({
    field: name === 'guid' ? PATH_GUID_FIELD : name,
    in: 'path',
    at: name,
    fileName: name,
    encoding: { kind: 'plain' },
    how: 'exact',
    required: true,
  }));
}

/**
 * The endpoint as the catalogue has it, as a bound endpoint: every field at its own name, plain; the
 * catalogue's `{guid}` at path parameter `guid`; a create's id at `/Id`. What an environment without a
 * binding sends, and what importing our own Swagger export gives.
 */
export function identityBound(e: Endpoint, how: BoundEndpoint['how'] = 'exact'): BoundEndpoint {
  const file = { operationId: e.id, summary: e.title, path: e.path, pointer: `#/paths/${escapePointer(e.path)}/${e.method.toLowerCase()}` };
  if (e.kind === 'dataset') {
    const fields = Object.keys(objectProperties(toJsonSchema(e.record)));
    return {
      kind: 'dataset',
      method: 'GET',
      path: e.path,
      file,
      how,
      placements: [...pathPlacements(e.path), ...fields.map(plainAt)],
      records: '',
    };
  }
  const body = e.body ? Object.keys(objectProperties(toJsonSchema(e.body))) : [];
  const answer = objectProperties(toJsonSchema(e.answer));
  return {
    kind: 'operation',
    method: e.method,
    path: e.path,
    file,
    how,
    placements: [...pathPlacements(e.path), ...body.map(plainAt)],
    extras: [],
    answer: 'Id' in answer ? { in: 'body', at: '/Id' } : null,
  };
}

/** The endpoint's binding on this environment, or the catalogue's own: what every request is encoded through. */
export function boundOf(e: Endpoint): BoundEndpoint {
  return e.binding ?? identityBound(e);
}

/** A binding of the whole catalogue at its own paths (tests, and the baseline the importer compares with). */
export function identityBinding(file = 'catalogue'): Binding {
  return {
    format: BINDING_FORMAT,
    version: BINDING_VERSION,
    source: { file, sha256: '', spec: 'swagger-2.0', basePath: '/api', importedAt: new Date(0).toISOString() },
    endpoints: Object.fromEntries(DATASETS_AND_OPERATIONS.map((e) => [e.id, identityBound(e)])),
    decisions: {},
    missing: {},
    extraDatasets: [],
    consequences: [],
  };
}
