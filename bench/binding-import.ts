/**
 * Importing a large customer API file: a generated OpenAPI 3.0 file of about 5 MB with 2,000 operations
 * (400 resources with list, read, create, replace and amend operations, inline schemas of 11 documented
 * properties, references, allOf and oneOf as real files have them; among them the incidents, third parties,
 * contracts and tasks the catalogue binds). Target (issue 24): `grc-sheets binding import` under 1 s. Baseline: the
 * file parsed and validated by swagger-parser alone (the floor every import pays).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importBinding } from '../src/binding';
import { formatReport } from '../src/binding-report';

type Obj = Record<string, unknown>;

const NOUNS = ['asset', 'vendor', 'policy', 'control', 'audit', 'finding', 'risk', 'issue', 'claim', 'site', 'process', 'system', 'register', 'review', 'exception', 'obligation', 'regulation', 'training', 'supplier', 'project'];
const QUALIFIERS = ['', 'regional', 'legacy', 'archived', 'draft', 'group', 'local', 'external', 'internal', 'shared', 'pending', 'scored', 'mapped', 'linked', 'tagged', 'owned', 'planned', 'closed', 'open', 'flagged'];
/** Resources the catalogue binds, so the matcher does its real work among the noise. */
const REAL = ['incidents', 'thirdparties', 'contracts', 'tasks'];

function properties(resource: string, n: number): Obj {
  const props: Obj = {
    id: { type: 'string', format: 'uuid', readOnly: true, description: `The ${resource} identifier.` },
    name: { type: 'string', maxLength: 200, description: `The ${resource}'s name as shown to users.` },
    owner: { $ref: '#/components/schemas/PersonRef' },
    organisation: { oneOf: [{ $ref: '#/components/schemas/OrgRef' }, { $ref: '#/components/schemas/OrgName' }] },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    status: { type: 'string', enum: ['Draft', 'Active', 'Closed', 'Archived'] },
  };
  for (let i = 0; props && Object.keys(props).length < n; i++)
    props[`${resource.replace(/[^a-z]/gi, '')}Attribute${i}`] = {
      type: i % 4 === 0 ? 'integer' : i % 4 === 1 ? 'boolean' : 'string',
      ...(i % 4 === 2 ? { format: 'date' } : {}),
      description: `Attribute ${i} of the ${resource}: documented at length, as generated files document every property with a sentence or two.`,
      ...(i % 7 === 0 ? { nullable: true } : {}),
    };
  return props;
}

export function generate(): Obj {
  const paths: Obj = {};
  const resources: string[] = [...REAL];
  for (const q of QUALIFIERS) for (const n of NOUNS) if (resources.length < 400) resources.push(`${q ? `${q}-` : ''}${n}s`);
  for (const r of resources) {
    const schema = { type: 'object', required: ['name'], properties: properties(r, 11) };
    const body = { allOf: [{ $ref: '#/components/schemas/Audited' }, schema] };
    const json = (s: unknown) => ({ 'application/json': { schema: s } });
    const id = { name: `${r.replace(/[^a-z]/gi, '')}Id`, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
    const op = (verb: string, extra: Obj) => ({ operationId: `${verb}_${r.replace(/-/g, '_')}`, summary: `${verb} ${r.replace(/-/g, ' ')}`, tags: [r], ...extra });
    paths[`/${r}`] = {
      get: op('List', { responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { data: { type: 'array', items: schema } } }) } } }),
      post: op('Create', { requestBody: { content: json(body) }, responses: { '201': { description: 'created', content: json({ type: 'object', properties: { data: { type: 'object', properties: { id: { type: 'string' } } } } }) } } }),
    };
    paths[`/${r}/{${id.name}}`] = {
      parameters: [id],
      get: op('Get', { responses: { '200': { description: 'ok', content: json(schema) } } }),
      put: op('Replace', { requestBody: { content: json(body) }, responses: { '204': { description: 'replaced' } } }),
      patch: op('Amend', { requestBody: { content: json(schema) }, responses: { '204': { description: 'amended' } } }),
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Generated enterprise API (benchmark)', version: '1.0' },
    servers: [{ url: 'https://grc.example.com/api' }],
    paths,
    components: {
      schemas: {
        PersonRef: { type: 'object', properties: { Guid: { type: 'string', format: 'uuid' }, Name: { type: 'string' } } },
        OrgRef: { type: 'object', properties: { Guid: { type: 'string', format: 'uuid' }, Name: { type: 'string' } } },
        OrgName: { type: 'object', properties: { Name: { type: 'string' } } },
        Audited: { type: 'object', properties: { revision: { type: 'integer', readOnly: true } } },
      },
    },
  };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

export default async function run(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'grc-bench-binding-')), 'enterprise.openapi.json');
  writeFileSync(file, JSON.stringify(generate(), null, 1));
  const bytes = statSync(file).size;
  const load = loadavg()[0]!;
  // One warm-up (module loading, JIT), then the best of three: the figure a quiet machine gives.
  await importBinding(file);
  const times: number[] = [];
  const cpu: number[] = [];
  let ops = 0;
  let bound = 0;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await importBinding(file);
    formatReport(r);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    times.push(performance.now() - t);
    ops = r.parsed.operations.length;
    bound = Object.keys(r.binding.endpoints).length;
  }
  const floor: number[] = [];
  const floorCpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await SwaggerParser.validate(file);
    const used = process.cpuUsage(c);
    floorCpu.push((used.user + used.system) / 1000);
    floor.push(performance.now() - t);
  }
  const best = Math.min(...times);
  const base = Math.min(...floor);
  return [
    '## Binding import (issues 20 and 24)',
    '',
    `A generated OpenAPI 3.0 file of ${(bytes / 2 ** 20).toFixed(1)} MB with ${ops} operations; ${bound} catalogue endpoints bound. Target: under 1 s (issue 24; it was 2 s in issue 20). Load average at the start: ${load.toFixed(1)}. The import runs on one thread: its CPU time is what it takes on a machine nobody else is using; the wall time is what it took on this one.`,
    '',
    '| step | wall, best of 3 | wall runs | CPU time, best of 3 | vs swagger-parser validate (wall) |',
    '|---|---|---|---|---|',
    `| swagger-parser validate alone (baseline) | ${ms(base)} | ${floor.map(ms).join(', ')} | ${ms(Math.min(...floorCpu))} | 1.00x |`,
    `| grc-sheets binding import + report | ${ms(best)} | ${times.map(ms).join(', ')} | ${ms(Math.min(...cpu))} | ${(best / base).toFixed(2)}x |`,
    '',
    `Goal (under 1 s): ${best < 1000 ? 'met' : 'missed'}, best wall ${ms(best)}, best CPU ${ms(Math.min(...cpu))}.`,
  ].join('\n');
}
