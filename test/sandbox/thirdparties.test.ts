import { catalog } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { leiWithCheckDigits } from '../../src/catalog';
import { call, post, start } from './helpers';

const TP = catalog.operation('thirdparty-create').path;
const CONTRACT = catalog.operation('contract-create').path;

describe('sandbox third parties and contracts (spec: Third party and third party contract)', () => {
  let sb: Sandbox;
  let st: Sandbox['store']['ctx']['st'];
  const tpField = (name: string) => st.thirdPartyFields.find((f) => f.Name === name)!;
  const contractField = (name: string) => st.contractFields.find((f) => f.Name === name)!;
  const tpGuid = () => sb.store.ctx.guid('thirdParty', 0);

  beforeAll(async () => {
    sb = await start();
    st = sb.store.ctx.st;
  });
  afterAll(() => sb.close());

  it('creates a third party with a valid LEI code and custom fields, and shows it in the datasets', async () => {
    const lei = leiWithCheckDigits('5493001KJTIIGC8Y1R');
    expect(lei).toBe('5493001KJTIIGC8Y1R12');
    const a = await post(sb, TP, {
      Name: 'Acme Hosting B.V.',
      LeiCode: lei,
      FrameworkDimensions: ['DORA'],
      CustomFields: [
        { CustomFieldGuid: tpField('Criticality').Id, Value: 'High' },
        { CustomFieldGuid: tpField('Services provided').Id, Value: 'Cloud hosting' },
        { CustomFieldGuid: tpField('Services provided').Id, Value: 'Payroll' },
        { CustomFieldGuid: tpField('Internal rating').Id, Value: 7 },
      ],
    });
    expect(a.status).toBe(201);
    const tps = (await call<Record<string, unknown>[]>(sb, catalog.dataset('thirdparty').path)).body;
    expect(tps.find((t) => t.Id === a.body.Id)).toMatchObject({
      Name: 'Acme Hosting B.V.',
      LeiCode: lei,
      FrameworkDimensions: ['DORA'],
    });
    const values = (
      await call<Record<string, unknown>[]>(sb, catalog.dataset('thirdpartycustomfieldvalues').path)
    ).body.filter((v) => v.ThirdPartyGuid === a.body.Id);
    // The invisible field is stored but not in the values dataset (visible populated fields only).
    expect(values.map((v) => v.Value)).toEqual(['High', 'Cloud hosting', 'Payroll']);
  });

  it('rejects an LEI code that fails the ISO 17442 check', async () => {
    const cases: [string, RegExp][] = [
      ['5493001KJTIIGC8Y1R13', /check digits .* are wrong/],
      ['5493001KJTIIGC8Y1R1', /has 20 characters/],
      ['5493001kjtiigc8y1r12', /capital letters or digits/],
    ];
    for (const [lei, message] of cases) {
      const a = await post(sb, TP, { Name: 'x', LeiCode: lei });
      expect(a.status).toBe(400);
      expect(a.body.errors).toEqual([{ field: 'LeiCode', message: expect.stringMatching(message) }]);
    }
  });

  it('errors table: rejects duplicate entries for one multi-select custom field', async () => {
    const f = tpField('Services provided').Id;
    const a = await post(sb, TP, {
      Name: 'x',
      CustomFields: [
        { CustomFieldGuid: f, Value: 'Payroll' },
        { CustomFieldGuid: f, Value: 'Payroll' },
      ],
    });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([
      { field: 'CustomFields[1]', message: expect.stringMatching(/multi-select.*twice/) },
    ]);
  });

  it('rejects custom field GUIDs that are not third party fields', async () => {
    const a = await post(sb, TP, {
      Name: 'x',
      CustomFields: [{ CustomFieldGuid: contractField('Exit regions').Id, Value: 'EU' }],
    });
    expect(a.body.errors[0].message).toMatch(/No custom field/);
  });

  it('creates a contract with a notice period in months and shows it in the dataset', async () => {
    const a = await post(sb, CONTRACT, {
      ThirdPartyGuid: tpGuid(),
      Name: 'Hosting 2026',
      Services: ['Hosting'],
      StartDate: '2026-01-01',
      EndDate: '2027-12-31',
      NoticePeriod: 3,
      NoticePeriodUnit: 'Months',
      CustomFields: [
        { CustomFieldGuid: contractField('Exit regions').Id, Value: 'EU' },
        { CustomFieldGuid: contractField('Exit regions').Id, Value: 'UK' },
      ],
    });
    expect(a.status).toBe(201);
    const rows = (await call<Record<string, unknown>[]>(sb, catalog.dataset('thirdpartycontract').path)).body;
    expect(rows.find((c) => c.Id === a.body.Id)).toMatchObject({
      ThirdPartyGuid: tpGuid(),
      NoticePeriod: 3,
      NoticePeriodUnit: 'Months',
      EndDate: '2027-12-31',
    });
    const values = (
      await call<Record<string, unknown>[]>(sb, catalog.dataset('thirdpartycontractcustomfieldvalues').path)
    ).body.filter((v) => v.ContractGuid === a.body.Id);
    expect(values.map((v) => v.Value)).toEqual(['EU', 'UK']);
  });

  it('needs the notice period number unless the unit is None', async () => {
    const base = { ThirdPartyGuid: tpGuid(), Name: 'c' };
    for (const unit of ['Months', 'Weeks', 'Days']) {
      const a = await post(sb, CONTRACT, { ...base, NoticePeriodUnit: unit });
      expect(a.body.errors).toEqual([
        { field: 'NoticePeriod', message: expect.stringMatching(new RegExp(unit)) },
      ]);
    }
    expect((await post(sb, CONTRACT, { ...base, NoticePeriodUnit: 'None' })).status).toBe(201);
    expect(
      (await post(sb, CONTRACT, { ...base, NoticePeriodUnit: 'Years', NoticePeriod: 1 })).body.errors[0]
        .field,
    ).toBe('NoticePeriodUnit');
    expect(
      (await post(sb, CONTRACT, { ...base, NoticePeriodUnit: 'Weeks', NoticePeriod: 1.5 })).body.errors[0]
        .field,
    ).toBe('NoticePeriod');
  });

  it('rejects an end date before the start date, an unknown third party and duplicate multi-select entries', async () => {
    const a = await post(sb, CONTRACT, {
      ThirdPartyGuid: tpGuid(),
      Name: 'c',
      NoticePeriodUnit: 'None',
      StartDate: '2026-05-01',
      EndDate: '2026-04-30',
    });
    expect(a.body.errors).toEqual([
      { field: 'EndDate', message: expect.stringMatching(/before the start date/) },
    ]);
    const b = await post(sb, CONTRACT, {
      ThirdPartyGuid: '00000000-0000-4000-8000-000000000000',
      Name: 'c',
      NoticePeriodUnit: 'None',
    });
    expect(b.body.errors[0].field).toBe('ThirdPartyGuid');
    const f = contractField('Exit regions').Id;
    const c = await post(sb, CONTRACT, {
      ThirdPartyGuid: tpGuid(),
      Name: 'c',
      NoticePeriodUnit: 'None',
      CustomFields: [
        { CustomFieldGuid: f, Value: 'US' },
        { CustomFieldGuid: f, Value: 'US' },
      ],
    });
    expect(c.body.errors[0].message).toMatch(/twice/);
  });

  it('accepts a contract for a third party created through the API', async () => {
    const tp = await post(sb, TP, { Name: 'New supplier' });
    expect(
      (
        await post(sb, CONTRACT, {
          ThirdPartyGuid: tp.body.Id,
          Name: 'First',
          NoticePeriodUnit: 'Days',
          NoticePeriod: 30,
        })
      ).status,
    ).toBe(201);
  });
});
