/**
 * The bound sandbox answers a create as the customer's file documents it, with the GUID of the record it
 * made wherever the file keeps it (issue 24): so the id the write-back reads is a record the next step (a
 * hyperlink on the new incident) finds. One small file per answer shape real generators write.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding } from '../../src/binding/import';
import { createCatalog, encodeRequest, readCreatedId, type BoundOperation } from '../../src/catalog';
import { startSandbox } from '../../src/sandbox';
import { createClient as createGrcClient } from '../../src/client';
import type { demoClient } from '../support/sandbox';

const uuid = { type: 'string', format: 'uuid' };
const json = (schema: unknown, media = 'application/json') => ({ content: { [media]: { schema } } });

/** An OpenAPI 3.0 file with one create (its answer as given) and the hyperlink on the created incident. */
const fileWith = (answers: Record<string, unknown>) => ({
  openapi: '3.0.1',
  info: { title: 'answers', version: 'v1' },
  paths: {
    '/api/incidents': {
      post: {
        operationId: 'Incidents_Create',
        summary: 'Creates an incident.',
        requestBody: json({
          type: 'object',
          required: ['name', 'reportingOrganizationGuid'],
          properties: {
            name: { type: 'string' },
            reportingOrganizationGuid: uuid,
            description: { type: 'string' },
            assessorGuids: { type: 'array', items: uuid },
            responsibleGuids: { type: 'array', items: uuid },
          },
        }),
        responses: answers,
      },
    },
    '/api/incidents/{incidentId}/hyperlinks': {
      post: {
        operationId: 'Incidents_AddHyperlink',
        summary: 'Adds a hyperlink to an incident.',
        parameters: [{ name: 'incidentId', in: 'path', required: true, schema: uuid }],
        requestBody: json({ type: 'object', required: ['url'], properties: { url: { type: 'string' } } }),
        responses: { '204': { description: 'Added' } },
      },
    },
  },
});

// Three members each: jest passes a callback as an extra argument to a test of fewer.
const SHAPES: [string, Record<string, unknown>, string | null][] = [
  ['a bare uuid with 201 (Microsoft.AspNetCore.OpenApi)', { '201': { description: 'Created', ...json(uuid) } }, null],
  ['a bare uuid as */* (springdoc)', { '200': { description: 'OK', ...json(uuid, '*/*') } }, null],
  ['a bare GUID of format guid (NSwag)', { '200': { description: 'OK', ...json({ type: 'string', format: 'guid' }) } }, null],
  ['a bare uuid as text/plain only', { '200': { description: 'OK', ...json(uuid, 'text/plain') } }, null],
  ['only a Location header', { '201': { description: 'Created', headers: { Location: { schema: { type: 'string' } } } } }, null],
  ['an envelope {data: {id}}', { '200': { description: 'OK', ...json({ type: 'object', properties: { data: { type: 'object', properties: { id: uuid, name: { type: 'string' } } } } }) } }, null],
  [
    'an envelope {Result, Messages} the admin points at',
    { '200': { description: 'OK', ...json({ type: 'object', required: ['Result', 'Messages'], properties: { Result: uuid, Messages: { type: 'array', items: { type: 'string' } } } }) } },
    'answer incident-create = body /Result',
  ],
  ["nothing but 200: Success (Swashbuckle's undocumented answer)", { '200': { description: 'Success' } }, null],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grc-answer-shapes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.each(SHAPES)('a create answered with %s gives the new incident its GUID, and its hyperlink step finds it', async (name, answers, override) => {
  const stem = join(dir, name.replace(/\W+/g, '-'));
  writeFileSync(`${stem}.json`, JSON.stringify(fileWith(answers)));
  if (override) writeFileSync(`${stem}.overrides`, `${override}\n`);
  const { binding } = await importBinding(`${stem}.json`, override ? { overrides: `${stem}.overrides` } : {});
  const sandbox = await startSandbox({ port: 0, scale: 20, binding, apiFile: `${stem}.json` });
  try {
    const cat = createCatalog(binding);
    const client = createClient(sandbox, cat);
    const create = cat.operation('incident-create').binding as BoundOperation;
    const org = [...sandbox.store.records('organizations')][0]!.Id as string;
    const user = [...sandbox.store.records('users')].find((u) => !u.Deleted)!.Id as string;
    const row = { Name: `Answered with ${name}`, ReportingOrganization: org, Description: 'x', Assessors: [user], Responsible: [user] };
    const encoded = encodeRequest(create, row, {});
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    const answer = await client.send('incident-create', encoded.request);
    if (name.includes('text/plain')) expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    const made = readCreatedId(create, answer);
    if (!made.ok) throw new Error(made.message);
    expect(sandbox.store.find('incidents', made.id)).toMatchObject({ Name: `Answered with ${name}` });

    const link = cat.operation('incident-hyperlink').binding as BoundOperation;
    const linked = encodeRequest(link, { '{guid}': made.id, Url: 'https://intranet.example.com/x' }, {});
    if (!linked.ok) throw new Error(JSON.stringify(linked.problems));
    await client.send('incident-hyperlink', linked.request);
    expect(sandbox.store.incidentExtra(made.id).hyperlinks).toHaveLength(1);
  } finally {
    await sandbox.close();
  }
});

const createClient = (sandbox: Parameters<typeof demoClient>[0], catalog: ReturnType<typeof createCatalog>) => {
  const { identifier, password } = sandbox.demoKey!;
  return createGrcClient({ baseUrl: sandbox.url, credentials: { identifier, password }, catalog });
};
