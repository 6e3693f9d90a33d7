import { bodies, records } from '../../src/catalog';
import type { Binding } from '../../src/catalog/binding';
import { identityMap, type WireShape } from '../../src/catalog/wire';
import { bindPaths } from '../catalog/bind-paths';

/** A service whose file names the incident's properties in camelCase, under other paths, with one more required property. */
export function shapedBinding(): Binding {
  const b = structuredClone(
    bindPaths({
      'incident-create': '/incidentdata/v1/incidents',
      incidents: '/incidentdata/v1/incidents/all',
    }),
  );
  const record: WireShape = identityMap(records.incident);
  record.properties = {
    ...record.properties,
    Id: 'guid',
    Name: 'title',
    ReportingOrganization: 'reporting.organization',
  };
  const body: WireShape = identityMap(bodies.createIncident);
  body.properties = { ...body.properties, Name: 'title', ReportingOrganization: 'reporting.organization' };
  body.required = ['title', 'reporting', 'reporting.organization', 'severity'];
  body.extra = [{ name: 'severity', type: 'string', enum: ['Low', 'High'], default: 'Low' }];
  const answer: WireShape = identityMap(bodies.created);
  answer.properties = { Id: 'guid' };
  b.endpoints['incident-create'] = { ...b.endpoints['incident-create']!, body, answer };
  b.endpoints.incidents = { ...b.endpoints.incidents!, record };
  return b;
}
