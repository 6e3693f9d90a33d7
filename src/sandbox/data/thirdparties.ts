import { FRAMEWORK_DIMENSIONS } from './standing';
import { dateBefore, dateTimeBefore, listTable, table, type Ctx, type Rec, type Table } from './context';
import { valuesTable } from './field-values';
import { leiWithCheckDigits } from '../../catalog';

const SERVICES = ['Hosting', 'Support', 'Licensing', 'Consulting', 'Payroll'];
const UNITS = ['Months', 'Weeks', 'Days', 'None'] as const;

export function thirdParty(c: Ctx, i: number): Rec {
  const r = c.rng('thirdParty', i);
  const prefix = Array.from({ length: 18 }, () => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'[r.int(36)]).join('');
  return {
    Id: c.guid('thirdParty', i),
    Name: `Supplier ${i + 1}`,
    LeiCode: r.next() < 0.7 ? leiWithCheckDigits(prefix) : null,
    FrameworkDimensions: r
      .distinct(FRAMEWORK_DIMENSIONS.length, r.int(3))
      .map((k) => FRAMEWORK_DIMENSIONS[k]!),
    DateCreated: dateTimeBefore(30 + r.int(1500), r),
  };
}

/** Each third party has two contracts: contract i belongs to third party floor(i/2). */
export function contract(c: Ctx, i: number): Rec {
  const r = c.rng('contract', i);
  const start = 100 + r.int(1500);
  const unit = r.pick(UNITS);
  return {
    Id: c.guid('contract', i),
    ThirdPartyGuid: c.guid('thirdParty', Math.floor(i / 2)),
    Name: `Contract ${i + 1}`,
    Services: r.distinct(SERVICES.length, 1 + r.int(2)).map((k) => SERVICES[k]!),
    StartDate: dateBefore(start),
    EndDate: dateBefore(start - 365 - r.int(1000)),
    NoticePeriod: unit === 'None' ? null : 1 + r.int(6),
    NoticePeriodUnit: unit,
    DateCreated: dateTimeBefore(start + 5, r),
  };
}

export function thirdPartyTables(c: Ctx): Record<string, Table> {
  const n = c.sizes.thirdParties;
  const st = c.st;
  // Values datasets carry the visible fields only (spec: "values of visible populated fields").
  const tpValued = st.thirdPartyFields.filter((f) => f.Visible);
  const contractValued = st.contractFields.filter((f) => f.Visible);
  return {
    thirdparty: table(n, (i) => thirdParty(c, i)),
    thirdpartycontract: table(n * 2, (i) => contract(c, i)),
    thirdpartycustomfields: listTable(st.thirdPartyFields),
    thirdpartycontractcustomfields: listTable(st.contractFields),
    thirdpartycustomfieldvalues: valuesTable(c, 'thirdParty', 'ThirdPartyGuid', n, tpValued),
    thirdpartycontractcustomfieldvalues: valuesTable(c, 'contract', 'ContractGuid', n * 2, contractValued),
  };
}
