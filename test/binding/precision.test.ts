import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import { formatReport } from '../../src/binding-report';

/**
 * Precision before recall (issue 24): an operation is bound only when its words say it is the endpoint.
 * The file below is written the way the ASP.NET file was (Swashbuckle, `/api/v1/...`, summaries from
 * XML comments), with its look-alikes: operations whose fields fit a catalogue endpoint while their words say
 * they do something else, and one whose fields fit while no word says anything.
 */
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = { '200': { description: 'OK' } };
const created = { '201': { description: 'Created', ...json({ type: 'string', format: 'uuid' }) } };
const id = (name = 'id') => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const list = (props: Record<string, unknown>) => ({ '200': { description: 'OK', ...json({ type: 'array', items: { type: 'object', properties: props } }) } });
const str = { type: 'string' };
const guid = { type: 'string', format: 'uuid' };

const FILE = {
  openapi: '3.0.1',
  info: { title: 'GRC service', version: 'v1' },
  paths: {
    '/api/v1/Incident': {
      post: {
        tags: ['Incident'], summary: 'Creates an incident.',
        requestBody: json({ type: 'object', required: ['Name', 'ReportingOrganization'], properties: { Name: str, Description: str, ReportingOrganization: guid } }),
        responses: created,
      },
    },
    // A measure of improvement, whose body has a name and a link: not a hyperlink.
    '/api/v1/Incident/{id}/Moi': {
      post: {
        tags: ['Incident'], summary: 'Add', description: 'Adds a measure of improvement (MOI) to the incident.',
        parameters: [id()],
        requestBody: json({ type: 'object', required: ['MoiName'], properties: { MoiName: str, Hyperlink: str } }),
        responses: created,
      },
    },
    '/api/v1/Incident/{id}/Restore': {
      post: {
        tags: ['Incident'], summary: 'Restores a deleted incident document.',
        parameters: [id()],
        requestBody: json({ type: 'object', properties: { FileName: str, Content: { type: 'string', format: 'byte' } } }),
        responses: ok,
      },
    },
    '/api/v1/Forms/{id}/Close': {
      post: {
        tags: ['Forms'], summary: 'Close a form',
        parameters: [id()],
        requestBody: json({ type: 'object', properties: { Fields: { type: 'array', items: { type: 'object', properties: { Name: str, Value: str } } } } }),
        responses: created,
      },
    },
    // The v1 task update submits the task: never the v2 update, which must not.
    '/api/v1/Task/{id}': {
      post: {
        tags: ['Task'], summary: 'Update task data', description: 'Updates the task and submits it for review.',
        parameters: [id()],
        requestBody: json({ type: 'object', properties: { Name: str, Description: str, Comment: str, Score: { type: 'integer' } } }),
        responses: ok,
      },
    },
    '/api/v1/Hosting/{name}/reboot': {
      post: { summary: 'Reboot all machines in an App Service Environment.', parameters: [id('name')], responses: ok },
    },
    // Fields that fit "create a third party", and no word that says so.
    '/api/v1/Widget': {
      post: {
        tags: ['Widget'], summary: 'Registers a widget.',
        requestBody: json({ type: 'object', properties: { Name: str, LeiCode: str, FrameworkDimensions: { type: 'array', items: guid } } }),
        responses: created,
      },
    },
    '/api/directdata/v1/risiko': {
      get: { deprecated: true, summary: 'Old risks', responses: list({ Id: guid, Name: str }) },
    },
    '/api/v1/users': { get: { tags: ['Users'], summary: 'Get user details', responses: list({ Id: guid, Name: str, Email: str }) } },
    '/api/v1/organizations': { get: { tags: ['Organizations'], summary: 'Gets the organizations.', responses: list({ Id: guid, Name: str, ParentId: guid }) } },
    '/api/v1/dimensions/business': { get: { tags: ['Dimensions'], responses: list({ Id: guid, Name: str }) } },
    '/api/v1/dimensions/framework': { get: { tags: ['Dimensions'], responses: list({ Id: guid, Name: str }) } },
  },
};

function write(doc: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'precision-')), 'api.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('precision before recall: only words bind', () => {
  const file = write(FILE);

  it.each([false, true])('binds none of the look-alikes (accept %s)', async (accept) => {
    const r = await importBinding(file, { accept });
    const bound = Object.fromEntries(Object.entries(r.binding.endpoints).map(([k, e]) => [k, `${e.method} ${e.path}`]));
    expect(bound).toEqual({
      risiko: 'GET /directdata/v1/risiko',
      users: 'GET /v1/users',
      organizations: 'GET /v1/organizations',
      businessdimensions: 'GET /v1/dimensions/business',
      frameworkdimensions: 'GET /v1/dimensions/framework',
      'incident-create': 'POST /v1/Incident',
      // The v1 update submits the task: that is what v1 does (the spec), so it is v1's and never v2's.
      'task-update': 'POST /v1/Task/{id}',
    });
    // The documented path is the dataset, never also an extra one.
    expect(r.binding.extraDatasets.map((x) => x.path)).not.toContain('/directdata/v1/risiko');
  });

  it('lists a candidate by shape alone as a decision, which --accept never takes', async () => {
    for (const accept of [false, true]) {
      const r = await importBinding(file, { accept });
      expect(r.binding.decisions['thirdparty-create']).toMatchObject({
        reason: 'no word says it is create a third party',
        candidates: [{ ref: 'POST /v1/Widget' }],
      });
      expect(r.unresolved).toContain('thirdparty-create');
    }
    const text = formatReport(await importBinding(file, { accept: true }));
    expect(text).toMatch(/Create a third party \(thirdparty-create\): no word says it is create a third party; only the fields .* \(--accept never takes one\)/);
    expect(text).toMatch(/matched by its words \(incident\)/);
  });

  it('takes a shape-only candidate when the admin says so', async () => {
    const overrides = join(mkdtempSync(join(tmpdir(), 'precision-')), 'o.overrides');
    writeFileSync(overrides, 'use thirdparty-create = POST /v1/Widget\n');
    const r = await importBinding(file, { overrides });
    expect(r.binding.endpoints['thirdparty-create']).toMatchObject({ how: 'admin', path: '/v1/Widget' });
    expect(r.unresolved).not.toContain('thirdparty-create');
  });

  it('binds the update that says it updates a task, not the one that says it submits it', async () => {
    const doc = structuredClone(FILE) as typeof FILE & { paths: Record<string, unknown> };
    doc.paths['/api/v2/Task/{id}'] = {
      put: {
        tags: ['Task'], summary: 'Update task data (v2)', description: 'Full update of every field; does not submit the task.',
        parameters: [id()],
        requestBody: json({ type: 'object', properties: { Name: str, Description: str, Comment: str, Score: { type: 'integer' } } }),
        responses: ok,
      },
    };
    const r = await importBinding(write(doc), { accept: true });
    expect(r.binding.endpoints['task-update-v2']).toMatchObject({ method: 'PUT', path: '/v2/Task/{id}' });
    expect(r.binding.endpoints['task-update']).toMatchObject({ method: 'POST', path: '/v1/Task/{id}' });
  });

  it('binds the real hyperlink operation next to the measure of improvement', async () => {
    const doc = structuredClone(FILE) as typeof FILE & { paths: Record<string, unknown> };
    doc.paths['/api/v1/Incident/{id}/Hyperlink'] = {
      post: {
        tags: ['Incident'], summary: 'Adds a hyperlink.', parameters: [id()],
        requestBody: json({ type: 'object', required: ['Url', 'Name'], properties: { Url: str, Name: str } }),
        responses: ok,
      },
    };
    const r = await importBinding(write(doc));
    const link = r.binding.endpoints['incident-hyperlink'];
    expect(link).toMatchObject({ path: '/v1/Incident/{id}/Hyperlink' });
    // The link's own Name is an extra column of the incidents template, never the incident's Name column.
    expect(link?.kind === 'operation' && link.extras.map((x) => x.header)).toEqual(['Name (hyperlink)']);
  });
});
