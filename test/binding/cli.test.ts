import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BindingInputError, importBinding } from '../../src/binding';
import { overridesPathFor, reportPathFor, run } from '../../src/cli/binding';
import { run as sandboxRun } from '../../src/cli/sandbox';
import { binding } from '../../src/catalog';

const FIX = join(__dirname, 'fixtures');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const l = jest.spyOn(console, 'log').mockImplementation((s) => void out.push(String(s)));
  const e = jest.spyOn(console, 'error').mockImplementation((s) => void err.push(String(s)));
  return {
    out: () => out.join(''),
    err: () => err.join(''),
    restore: () => [o, l, e].forEach((m) => m.mockRestore()),
  };
}

async function cli(argv: string[], fn = run) {
  const c = capture();
  try {
    const code = await fn(argv);
    return { code, out: c.out(), err: c.err() };
  } finally {
    c.restore();
  }
}

const tmp = () => mkdtempSync(join(tmpdir(), 'binding-cli-'));
const minimal = (paths: object, extra: object = {}) =>
  JSON.stringify(
    { swagger: '2.0', info: { title: 't', version: '1' }, basePath: '/api', paths, ...extra },
    null,
    2,
  );

describe('grc-sheets binding import: exit status', () => {
  it('exits 0 and writes the binding, the report and a starter overrides file when nothing awaits a decision', async () => {
    const dir = tmp();
    const out = join(dir, 'acme.binding.json');
    const r = await cli(['import', join(FIX, 'acme.swagger.json'), '--out', out]);
    expect(r.code).toBe(0);
    expect(Object.keys(binding.parse(JSON.parse(readFileSync(out, 'utf8'))).missing)).toEqual(['contract-create']);
    expect(reportPathFor(out)).toBe(join(dir, 'acme.binding.report.txt'));
    expect(readFileSync(reportPathFor(out), 'utf8')).toBe(r.out);
    expect(r.out).toMatch(/DECISIONS FOR THE ADMIN: 1/);
    expect(overridesPathFor(out)).toBe(join(dir, 'acme.binding.overrides'));
    expect(readFileSync(overridesPathFor(out), 'utf8')).toMatch(/^# grc-sheets binding overrides/);
  });

  it('starts the overrides file with a commented "none" line per documented dataset the file does not list; uncommented, the next import takes it away', async () => {
    const dir = tmp();
    const out = join(dir, 'acc.json');
    const file = join(FIX, 'no-directdata.swashbuckle.json');
    expect((await cli(['import', file, '--out', out])).code).toBe(0);
    const started = readFileSync(overridesPathFor(out), 'utf8');
    expect(started).toMatch(/# Documented datasets the file does not list: kept at the spec's path\. Uncomment to take one away:/);
    expect(started).toContain('# none audit   # Audits, GET /directdata/v1/audit');
    expect(started).not.toMatch(/# none auditcontextcustomfields/);
    writeFileSync(overridesPathFor(out), started.replace('# none audit ', 'none audit '));
    const again = await cli(['import', file, '--out', out]);
    expect(again.code).toBe(0);
    const b = binding.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(b.none).toEqual(['audit']);
    expect(again.out).toMatch(/Datasets unavailable in the taskpane \(\d+\): Audits, /);
    expect(again.out).not.toContain('  Audits (audit): GET /directdata/v1/audit');
  });

  it('exits 1 while a decision is open, 0 once the admin writes the "use" line, and keeps the choice on re-import', async () => {
    const dir = tmp();
    const out = join(dir, 'binding.json');
    const file = join(FIX, 'globex.openapi.yaml');
    expect((await cli(['import', file, '--out', out])).code).toBe(1);
    const started = readFileSync(overridesPathFor(out), 'utf8');
    expect(started).toMatch(/# use thirdparty-create = POST \/thirdpartydata\/v1\/thirdparties\/save/);
    writeFileSync(overridesPathFor(out), started.replace('# use thirdparty-create = POST /thirdpartydata/v1/thirdparties/save', 'use thirdparty-create = POST /thirdpartydata/v1/thirdparties/save'));
    const again = await cli(['import', file, '--out', out]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/Overrides: .*binding\.overrides \(1 applied\)/);
    expect(again.out).toMatch(/Create a third party \(thirdparty-create\) {2}-> {2}POST \/api\/thirdpartydata\/v1\/thirdparties\/save/);
    expect(JSON.parse(readFileSync(out, 'utf8')).endpoints['thirdparty-create']).toMatchObject({
      how: 'admin',
      path: '/thirdpartydata/v1/thirdparties/save',
    });
    // The admin's file is theirs: an import never rewrites it.
    expect(readFileSync(overridesPathFor(out), 'utf8')).toMatch(/^use thirdparty-create/m);
  });

  it('exits 0 with --accept', async () => {
    const out = join(tmp(), 'binding.json');
    expect((await cli(['import', join(FIX, 'globex.openapi.yaml'), '--out', out, '--accept'])).code).toBe(0);
  });

  it('exits 2 on wrong usage', async () => {
    expect((await cli(['export', 'x.json'])).code).toBe(2);
    expect((await cli(['import'])).code).toBe(2);
    expect((await cli(['import', 'a', '--bogus'])).code).toBe(2);
  });

  it('exits 2 on a bad overrides file or a missing one given by name, and writes nothing', async () => {
    const dir = tmp();
    const out = join(dir, 'binding.json');
    writeFileSync(join(dir, 'bad.overrides'), 'use incident-create POST /incidents\n');
    const r = await cli(['import', join(FIX, 'acme.swagger.json'), '--out', out, '--overrides', join(dir, 'bad.overrides')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.overrides:1: not an overrides line/);
    expect(r.err).toMatch(/Nothing was written/);
    const gone = await cli(['import', join(FIX, 'acme.swagger.json'), '--out', out, '--overrides', join(dir, 'none.overrides')]);
    expect(gone.code).toBe(2);
    expect(gone.err).toMatch(/none\.overrides: no such overrides file/);
    expect(readdirSync(dir)).toEqual(['bad.overrides']);
  });
});

describe('bad input: one clear message naming the place, nothing written', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'not a Swagger file',
      'x.json',
      JSON.stringify({ hello: 'world' }),
      /x\.json: not a Swagger or OpenAPI file \(no "swagger" or "openapi" field/,
    ],
    [
      'a broken $ref',
      'ref.json',
      minimal({
        '/directdata/v1/x': {
          get: { responses: { '200': { description: 'x', schema: { $ref: '#/definitions/Nope' } } } },
        },
      }),
      /ref\.json: broken \$ref "#\/definitions\/Nope" at #\/paths\/~1directdata~1v1~1x\/get\/responses\/200\/schema\/\$ref/,
    ],
    [
      'duplicate operationIds',
      'dup.json',
      minimal({
        '/a': { get: { operationId: 'List', responses: { '200': { description: 'x' } } } },
        '/b': { get: { operationId: 'List', responses: { '200': { description: 'x' } } } },
      }),
      /dup\.json: duplicate operationId "List" at #\/paths\/~1a\/get and #\/paths\/~1b\/get/,
    ],
    [
      'a YAML syntax error',
      'bad.yaml',
      'swagger: "2.0"\ninfo:\n  title: x\n   version: 1\npaths: {}\n',
      /bad\.yaml: bad indentation of a mapping entry \(4:/,
    ],
  ];

  it.each(cases)('%s', async (_what, name, text, message) => {
    const dir = tmp();
    const file = join(dir, name);
    if (text) writeFileSync(file, text);
    await expect(importBinding(file)).rejects.toThrow(BindingInputError);
    await expect(importBinding(file)).rejects.toThrow(message);
    const out = join(dir, 'out.json');
    const r = await cli(['import', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).toMatch(/Nothing was written/);
    expect(r.err.split('\n').filter((l) => l.trim()).length).toBeLessThanOrEqual(8);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(reportPathFor(out))).toBe(false);
    expect(existsSync(overridesPathFor(out))).toBe(false);
  });
});

describe('grc-sheets sandbox --export-swagger', () => {
  it('writes a Swagger 2.0 file that imports with every endpoint exact', async () => {
    const dir = tmp();
    const file = join(dir, 'catalogue.json');
    expect((await cli(['--export-swagger', file], sandboxRun)).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc).toMatchObject({ swagger: '2.0', basePath: '/api' });
    expect(doc.definitions.IncidentCreateBody.required).toEqual(['Name', 'ReportingOrganization']);
    expect(doc.definitions.ContractCreateBody.properties.NoticePeriodUnit.enum).toEqual([
      'Months',
      'Weeks',
      'Days',
      'None',
    ]);
    expect(doc.definitions.IncidentsRecord.properties.DateRegistered).toMatchObject({
      format: 'date-time',
      'x-nullable': true,
    });
    const out = join(dir, 'binding.json');
    const r = await cli(['import', file, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/DECISIONS FOR THE ADMIN: 0/);
    expect(r.out).toMatch(/WHAT CANNOT BE BOUND, by consequence\n {2}nothing: every catalogue endpoint is bound\./);
    const printed = await cli(['--export-swagger'], sandboxRun);
    expect(JSON.parse(printed.out)).toEqual(doc);
    expect((await cli(['--export-swagger', file, '--port', '1'], sandboxRun)).code).toBe(2);
  });
});
