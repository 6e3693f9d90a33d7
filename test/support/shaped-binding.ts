import type { Binding, BoundDataset, BoundOperation, Placement } from '../../src/catalog';
import { bindPaths } from '../catalog/bind-paths';

const moved = (p: Placement, to: Record<string, string>): Placement =>
  to[p.field] ? { ...p, at: to[p.field]!, fileName: to[p.field]!.split('/').pop()!, how: 'name' } : p;

/** A service whose file names the incident's properties its own way, under other paths, with one more required property. */
export function shapedBinding(): Binding {
  const b = structuredClone(
    bindPaths({
      'incident-create': '/incidentdata/v1/incidents',
      incidents: '/incidentdata/v1/incidents/all',
    }),
  );
  const create = b.endpoints['incident-create'] as BoundOperation;
  b.endpoints['incident-create'] = {
    ...create,
    placements: create.placements.map((p) => moved(p, { Name: '/title', ReportingOrganization: '/reporting/organization' })),
    extras: [
      {
        key: 'body:/severity',
        header: 'severity',
        in: 'body',
        at: '/severity',
        fileName: 'severity',
        cell: 'text',
        values: ['Low', 'High'],
        encoding: { kind: 'enum', values: ['Low', 'High'], map: {} },
        required: true,
        default: 'Low',
      },
    ],
    answer: { in: 'body', at: '/guid' },
  };
  const incidents = b.endpoints.incidents as BoundDataset;
  b.endpoints.incidents = {
    ...incidents,
    placements: incidents.placements.map((p) =>
      moved(p, { Id: '/guid', Name: '/title', ReportingOrganization: '/reporting/organization' }),
    ),
  };
  return b;
}
