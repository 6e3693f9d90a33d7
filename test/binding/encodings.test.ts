/**
 * Files as real generators write them, one trait each (fixtures/encodings): NSwag's x-enumNames, Azure's
 * x-ms-enum (string codes), ASP.NET Core 11's OpenAPI 3.2 with x-enum-varnames, a hand-kept Swagger 2.0
 * YAML with anchors and merge keys, Swashbuckle with asp-versioning's `/api/v{version}/...`. Each imports; its notice period unit "Months" is encoded as the file's
 * value of that meaning; the bound sandbox and the relay start on it and the request sent through the relay
 * lands in the sandbox as the file's value.
 */
import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import { encodeRequest, type BoundOperation } from '../../src/catalog';
import { startWorld, stopWorld, type World } from './world';

const FIX = join(__dirname, 'fixtures', 'encodings');
type Json = Record<string, unknown>;

const CASES: [file: string, spec: string, unit: string, months: string | number, path: string][] = [
  ['nswag.openapi.json', 'openapi-3.0', 'noticePeriodUnit', 3, '/thirdpartydata/v1/contracts'],
  ['azure.openapi.json', 'openapi-3.0', 'noticePeriodUnit', 'M', '/thirdpartydata/v1/contracts'],
  ['aspnet11.openapi.json', 'openapi-3.2', 'noticePeriodUnit', 3, '/thirdpartydata/v1/contracts'],
  ['handkept.swagger.yaml', 'swagger-2.0', 'NoticePeriodUnit', 3, '/thirdpartydata/v1/contracts'],
  // asp-versioning without SubstituteApiVersionInUrl: /api/v{version}/Contracts, the version's default 1.0.
  ['versioned.swashbuckle.json', 'openapi-3.0', 'noticePeriodUnit', 'Months', '/v1.0/Contracts'],
];

describe.each(CASES)('%s', (file, spec, unit, months, path) => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(join(FIX, file));
  });
  afterAll(() => stopWorld(w));

  it(`imports as ${spec} and sends "Months" as ${JSON.stringify(months)} through the relay`, async () => {
    expect(w!.binding.source.spec).toBe(spec);
    const op = w!.binding.endpoints['contract-create'] as BoundOperation;
    expect(op.path).toBe(path);
    const party = w!.sandbox.store.list<Json>('thirdparty')[0]!;
    const encoded = encodeRequest(op, { ThirdPartyGuid: party.Id, Name: `${file} contract`, NoticePeriod: 2, NoticePeriodUnit: 'Months' }, {});
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    expect((encoded.request.body as Json)[unit]).toBe(months);
    const answer = await w!.client.send('contract-create', encoded.request);
    expect(answer.status).toBeLessThan(300);
    const got = w!.sandbox.store.received.find((r) => r.endpoint === 'contract-create');
    expect((got?.body as Json)[unit]).toBe(months);
    expect(got?.path).toBe(path);
  });
});

it('a merge key that names no mapping is refused, naming the key and where it is', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'merge-')), 'bad.yaml');
  writeFileSync(file, "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\ndefinitions:\n  A:\n    <<: 3\n    type: object\n");
  await expect(importBinding(file)).rejects.toThrow(`${file}: the YAML merge key "<<" at #/definitions/A must name a mapping`);
});

describe('a custom method path (POST /v2/tasks/{id}:advance)', () => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(join(FIX, 'custom-method.openapi.yaml'));
  });
  afterAll(() => stopWorld(w));

  const auth = () =>
    `Basic ${Buffer.from(`${w!.sandbox.demoKey!.identifier}:${w!.sandbox.demoKey!.password}`).toString('base64')}`;

  it('is bound, and an advance sent through the relay reaches the sandbox at that path', async () => {
    const op = w!.binding.endpoints['task-advance'] as BoundOperation;
    expect([op.method, op.path]).toEqual(['POST', '/v2/tasks/{id}:advance']);
    const owner = w!.sandbox.store.list<Json>('users')[0]!.Name;
    const task = w!.sandbox.store.list<Json>('tasks').find((t) => t.Status === 'To do' && t.ResponsibleUser === owner)!;
    const encoded = encodeRequest(op, { '{guid}': task.Id }, {});
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    expect(encoded.request.path).toBe(`/v2/tasks/${task.Id as string}:advance`);
    const answer = await w!.client.send('task-advance', encoded.request);
    expect(answer.status).toBeLessThan(300);
    expect(w!.sandbox.store.received.find((r) => r.endpoint === 'task-advance')?.path).toBe(`/v2/tasks/${task.Id as string}:advance`);
    expect(w!.sandbox.store.find('tasks', task.Id as string)).toMatchObject({ Status: 'Ready for review' });
  });

  it('the relay forwards only the bound method name: another suffix, or none, is not that operation', async () => {
    const id = w!.sandbox.store.list<Json>('tasks')[0]!.Id as string;
    const status = async (path: string) =>
      (await fetch(`${w!.relay.url}/api/acc${path}`, { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body: '{}' })).status;
    expect(await status(`/v2/tasks/${id}:delete`)).toBe(404);
    expect(await status(`/v2/tasks/${id}`)).toBe(404);
    expect(await status(`/v2/tasks/${id}:advance:advance`)).toBe(404);
  });
});

it('a version inside a segment the file fixes no value for: a decision, and the default line settles it', async () => {
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'version-'));
  const doc = JSON.parse(readFileSync(join(FIX, 'versioned.swashbuckle.json'), 'utf8')) as Json;
  const post = ((doc.paths as Json)['/api/v{version}/Contracts'] as Json).post as { parameters: { schema: Json }[] };
  delete post.parameters[0]!.schema.default;
  const file = join(dir, 'versioned.json');
  writeFileSync(file, JSON.stringify(doc));
  const open = await importBinding(file);
  expect((open.binding.endpoints['contract-create'] as BoundOperation).path).toBe('/v{version}/Contracts');
  expect(open.binding.consequences).toContainEqual(expect.objectContaining({ kind: 'required-extra', endpoint: 'contract-create', columns: ['version'] }));
  const overrides = join(dir, 'versioned.overrides');
  writeFileSync(overrides, 'default contract-create path:version = "2.0"\n');
  const op = (await importBinding(file, { overrides })).binding.endpoints['contract-create'] as BoundOperation;
  const r = encodeRequest(op, { ThirdPartyGuid: '10000000-0000-4000-8000-000000000001', Name: 'x', NoticePeriodUnit: 'Months' }, {});
  expect(r.ok && r.request.path).toBe('/v2.0/Contracts');
  // The relay matches the same template: the version is what sits after the literal v.
  const { matchTemplate } = await import('../../src/catalog');
  expect(matchTemplate(op.path, ['v2.0', 'Contracts'])).toMatchObject({ version: '2.0' });
  expect(matchTemplate(op.path, ['2.0', 'Contracts'])).toBeNull();
});
