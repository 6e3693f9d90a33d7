import { z } from 'zod';
import { bodies } from '../../src/catalog';
import type { CellProblem } from '../../src/writeback/problem';
import { passesByField } from '../../src/writeback/rows/bodycheck';
import { checkBody } from '../../src/writeback/rows/rowreader';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { WritebackApi } from '../../src/writeback/api';
import { unknownColumns } from '../../src/writeback/checks/columns';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { standing } from './fixtures';

const api: WritebackApi = {
  download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
  send: async () => {
    throw new Error('validation sends nothing');
  },
};

async function plan(columns: string[], rows: (string | null)[][]) {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({ name: 'Inc', sheet: 'Sheet1', anchor: 'B3', columns: columns.map((name) => ({ name, format: 'text' })) });
  await workbook.writeRows('Inc', 0, rows);
  return preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: { name: 'ACC', production: false } });
}

describe('checks across rows and of the header', () => {
  it('identical rows are warned on each, naming the others by sheet row', async () => {
    const p = await plan(['Name', 'Reporting organization'], [
      ['Leak', 'Finance'],
      ['Other', 'Finance'],
      ['Leak', 'Finance'],
      ['Leak', 'Finance'],
      ['Leak', 'IT'],
    ]);
    const twins = p.validation.problems.filter((x) => x.code === 'identical-rows');
    // Body starts on sheet row 4 (header on row 3).
    expect(twins.map((x) => [x.row, x.severity, x.column])).toEqual([
      [0, 'warning', 'Name'],
      [2, 'warning', 'Name'],
      [3, 'warning', 'Name'],
    ]);
    expect(twins[0]!.message).toContain('identical to row 6, row 7');
    expect(twins[1]!.message).toContain('identical to row 4, row 7');
    // A warning: the rows are still sent.
    expect(p.toSend).toBe(5);
    expect(p.validation.rows[2]!.problems.map((x) => x.code)).toContain('identical-rows');
  });

  it('a column the template does not know is warned, naming the closest known column', async () => {
    const p = await plan(['Name', 'Reporting organization', 'Desciption', 'My notes'], [['Leak', 'Finance', 'lost', 'x']]);
    const unknown = p.validation.problems.filter((x) => x.code === 'unknown-column');
    expect(unknown.map((x) => [x.row, x.column, x.severity])).toEqual([
      [-1, 'Desciption', 'warning'],
      [-1, 'My notes', 'warning'],
    ]);
    expect(unknown[0]!.message).toContain('did you mean "Description"?');
    expect(unknown[1]!.message).not.toContain('did you mean');
  });

  it('the result and row key columns are the post\'s own, never unknown', () => {
    expect(unknownColumns(['Name', 'Result', 'Result GUID', 'Result message', 'Result time', 'Row key'], ['Name'])).toEqual([]);
    expect(unknownColumns(['Reportng organisation'], ['Name', 'Reporting organization'])[0]!.message).toContain('"Reporting organization"');
  });
});

describe('a body checked field by field (validation speed)', () => {
  const G = '11111111-2222-4333-8444-555555555555';
  const columnOf = { Name: 'Name', IncidentTypes: 'Incident types', DateDetected: 'Date detected', CustomFields: 'Custom' };
  const good = { Name: 'Leak', ReportingOrganization: G, IncidentTypes: [G], DateDetected: '2025-03-04', Description: undefined };

  it('passes exactly the bodies the schema passes, remembered values included, and a refused body keeps zod\'s words', () => {
    const schema = bodies.createIncident;
    const cases: unknown[] = [
      good,
      { ...good, Name: 'Leak 2' },
      { ...good, IncidentTypes: ['not a guid'] },
      { ...good, IncidentTypes: [G, 'not a guid'] },
      { ...good, DateDetected: '03/04/2025' },
      { ReportingOrganization: G },
      { ...good, CustomFields: [{ CustomFieldGuid: G }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: 'x' }] },
      { ...good, Classification: 7 },
      // Plain text fields take any string, and nothing else.
      { ...good, Name: 5 },
      { ...good, Name: undefined },
      { ...good, Description: 'lost' },
      { ...good, Description: null },
      { ...good, RootCause: false },
      // Custom field answers: a list of flat records, remembered by its JSON once accepted.
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: 'x' }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: 'x', DateValue: '2025-03-04' }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, DateValue: '2025-03-04' }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, DateValue: '2025-03-04' }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: 0 }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: -0 }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: NaN }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: undefined }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: { x: 1 } }] },
      { ...good, CustomFields: [{ CustomFieldGuid: G, Value: true }, { CustomFieldGuid: 'not a guid', Value: true }] },
      'a text',
      null,
    ];
    for (const body of cases) {
      const parsed = schema.safeParse(body);
      expect(passesByField(schema, body)).toBe(parsed.success);
      const problems: CellProblem[] = [];
      expect(checkBody(schema, body, columnOf, problems)).toBe(parsed.success);
      const words = parsed.success
        ? []
        : parsed.error.issues.map((i) => {
            const field = String(i.path[0] ?? '');
            const column = (columnOf as Record<string, string>)[field] ?? field;
            return `${column}: ${i.message}; correct ${column}`;
          });
      expect(problems.map((p) => `${p.column}: ${p.message}`)).toEqual(words);
    }
    const problems: CellProblem[] = [];
    checkBody(schema, { ...good, IncidentTypes: ['not a guid'] }, columnOf, problems);
    expect(problems.map((p) => [p.column, p.code, p.message])).toEqual([
      ['Incident types', 'invalid-field', 'expected a GUID; correct Incident types'],
    ]);
  });

  it('passes what zod passes for optional, exact optional, defaulted and checked fields, lists and text', () => {
    const schema = z.object({
      A: z.string().optional(),
      B: z.string().exactOptional(),
      C: z.array(z.string()).default([]).optional(),
      D: z.array(z.string().min(2)).max(1).optional(),
      E: z.string().min(2).optional(),
      F: z.email().optional(),
      G: z.array(z.object({ K: z.string(), V: z.number().optional() })).optional(),
    });
    const values = [undefined, '', 'x', 'xy', 'a@b.example', 3, null, [], ['xy'], ['xy', 'zw'], ['x'], [{ K: 'k' }], [{ K: 'k', V: 1 }], [{ K: 'k', V: -0 }], [{ K: 1 }], [{ K: 'k', V: undefined }]];
    for (const key of ['A', 'B', 'C', 'D', 'E', 'F', 'G'])
      for (const v of [...values, ...values]) {
        const body = { C: ['xy'], [key]: v };
        expect([key, v, passesByField(schema, body)]).toEqual([key, v, schema.safeParse(body).success]);
      }
    // An absent defaulted field is left to zod (it fills the default): a "no" that only costs a whole parse.
    expect([passesByField(schema, {}), schema.safeParse({}).success]).toEqual([false, true]);
  });

  it('never answers for a schema with checks of its own or one that refuses unknown fields: those are parsed whole', () => {
    const refined = z.object({ A: z.string().optional() }).refine((b) => b.A !== 'no', { message: 'not no' });
    const strict = z.strictObject({ A: z.string() });
    expect(passesByField(refined, { A: 'yes' })).toBe(false);
    expect(passesByField(strict, { A: 'yes' })).toBe(false);
    const problems: CellProblem[] = [];
    expect(checkBody(strict, { A: 'yes', B: 1 }, {}, problems)).toBe(false);
    expect(problems).toHaveLength(1);
    expect(checkBody(refined, { A: 'yes' }, {}, [])).toBe(true);
  });
});
