// TEMPORARY until bindcore's importer and fixtures are merged: bindings made by hand in the shapes the fixtures have.
import { z } from 'zod';
import { catalog } from '../../src/catalog';
import type { Binding } from '../../src/catalog/binding';
import type { WireShape } from '../../src/catalog/wire';
import { bindPaths } from '../catalog/bind-paths';

export const FIXTURES = ['camel'] as const;

const camel = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function unwrap(t: z.ZodType): z.ZodType {
  let x = t;
  while (x instanceof z.ZodOptional || x instanceof z.ZodNullable) x = x.unwrap() as z.ZodType;
  return x;
}

function camelShape(schema: z.ZodType): WireShape {
  const shape = unwrap(schema);
  const properties: WireShape['properties'] = {};
  if (shape instanceof z.ZodObject) {
    for (const [k, v] of Object.entries(shape.shape as Record<string, z.ZodType>)) {
      const inner = unwrap(v);
      properties[k] =
        inner instanceof z.ZodArray && unwrap(inner.element as z.ZodType) instanceof z.ZodObject
          ? { path: camel(k), items: camelShape(inner.element as z.ZodType) }
          : camel(k);
    }
  }
  return { properties, required: [], enums: {}, formats: {} };
}

export async function importFixture(_name: string): Promise<Binding> {
  const b = structuredClone(bindPaths({}));
  for (const e of catalog.endpoints) {
    const bound = b.endpoints[e.id]!;
    if (e.kind === 'dataset') bound.record = camelShape(e.record);
    else {
      if (e.body) bound.body = camelShape(e.body);
      if (e.id.endsWith('-create')) bound.answer = { properties: { Id: 'id' }, required: [], enums: {}, formats: {} };
    }
  }
  b.endpoints['incident-create']!.path = '/incidentdata/v1/incidents';
  b.endpoints['incident-create']!.body!.properties.ReportingOrganization = 'reportingOrganization.name';
  b.endpoints['incident-create']!.body!.required = ['name', 'reportingOrganization.name', 'channel'];
  b.endpoints['incident-create']!.body!.extra = [{ name: 'channel', type: 'string', default: 'Excel' }];
  delete b.endpoints['samples-generate'];
  b.missing.push('samples-generate');
  return b;
}
