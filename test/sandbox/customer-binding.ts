import { join } from 'node:path';
import {
  identityBinding,
  type Binding,
  type BoundDataset,
  type BoundOperation,
  type Encoding,
  type Placement,
} from '../../src/catalog';

/**
 * Bindings written by hand, as an admin's overrides would make them, for the corpus files in
 * test/binding/corpus/: the sandbox's tests do not depend on how well the importer reads a file.
 */
export const corpusFile = (name: string) => join(__dirname, '..', 'binding', 'corpus', name);

export const at = (field: string, pointer: string, encoding: Encoding = { kind: 'plain' }): Placement => ({
  field,
  in: 'body',
  at: pointer,
  fileName: pointer.split('/').pop()!,
  encoding,
  how: 'admin',
});

export const inPath = (field: string, name: string): Placement => ({
  field,
  in: 'path',
  at: name,
  fileName: name,
  encoding: { kind: 'plain' },
  how: 'admin',
  required: true,
});

const file = (method: string, path: string) => ({ path, pointer: `#/paths/${path}/${method.toLowerCase()}` });

export function operation(
  method: BoundOperation['method'],
  path: string,
  placements: Placement[],
  answer: BoundOperation['answer'] = null,
  extras: BoundOperation['extras'] = [],
): BoundOperation {
  return {
    kind: 'operation',
    method,
    path,
    file: file(method, path),
    how: 'admin',
    placements,
    extras,
    answer,
  };
}

export function dataset(path: string, placements: Placement[], records = ''): BoundDataset {
  return { kind: 'dataset', method: 'GET', path, file: file('GET', path), how: 'admin', placements, records };
}

/** The catalogue at its own paths, with the given endpoints bound as the customer's file has them. */
export function customerBinding(endpoints: Record<string, BoundOperation | BoundDataset>): Binding {
  const b = identityBinding('customer');
  Object.assign(b.endpoints, endpoints);
  return b;
}

const ref = (
  list: string,
  value: 'name' | 'guid',
  more: Partial<Extract<Encoding, { kind: 'ref' }>> = {},
): Encoding => ({
  kind: 'ref',
  list,
  value,
  idAt: '/Guid',
  ...more,
});

/** initech.openapi.json (OpenAPI 3.0): references as {Guid, Name}, answer {Guid}, incidents dataset. */
export function initechBinding(): Binding {
  return customerBinding({
    'incident-create': operation(
      'POST',
      '/v1/Incidents',
      [
        at('Name', '/IncidentTitle'),
        at('Description', '/Description'),
        at(
          'ReportingOrganization',
          '/ReportingOrganisation',
          ref('organizations', 'name', { nameAt: '/Name' }),
        ),
        at('AffectedOrganizations', '/AffectedOrganisations', ref('organizations', 'name', { many: true })),
        at('IncidentTypes', '/IncidentTypes', ref('incidenttypes', 'guid', { many: true })),
        at('Classification', '/Classification', ref('incidentclassifications', 'guid')),
        at('DateDetected', '/DetectionDate', { kind: 'date', format: 'date-time' }),
        at('Assessors', '/Assessors', ref('users', 'name', { many: true })),
        at('Responsible', '/Responsible', ref('users', 'name', { many: true })),
        at('CustomFields', '/CustomFieldAnswers', {
          kind: 'custom-fields',
          style: 'entries',
          guidAt: '/CustomField/Guid',
          valueAt: '/Answer',
          dateAt: '/AnswerDate',
        }),
      ],
      { in: 'body', at: '/Guid' },
    ),
    'incident-hyperlink': operation('POST', '/v1/Incidents/{IncidentGuid}/Hyperlinks', [
      inPath('{guid}', 'IncidentGuid'),
      at('Url', '/Link'),
      at('Description', '/Description'),
    ]),
    // As an importer that missed the record's own id would bind it: the name only.
    organizations: dataset('/v1/Organisations', [at('Name', '/Name')]),
    incidents: dataset('/v1/Incidents', [
      at('Id', '/Guid'),
      at('Name', '/IncidentTitle'),
      at('Identifier', '/Identifier'),
      at(
        'ReportingOrganization',
        '/ReportingOrganisation',
        ref('organizations', 'name', { nameAt: '/Name' }),
      ),
    ]),
  });
}
