import { ACTIVE_USERS, FRAMEWORK_DIMENSIONS, ORGANIZATIONS } from './standing';
import { code, dateBefore, listTable, table, type Ctx, type Rec, type Table } from './context';
import { chosenOptions } from './field-values';

const SUBJECTS = [
  'Payment fraud',
  'Data leakage',
  'Vendor failure',
  'Model error',
  'Regulatory breach',
  'System outage',
  'Mis-selling',
  'Key person loss',
];
const AREAS = [
  'in retail lending',
  'in the payment chain',
  'at outsourced providers',
  'in reporting',
  'in customer onboarding',
  'in treasury',
];
export const RISK_CATEGORIES = ['Operational', 'Compliance', 'IT', 'Financial', 'Strategic'];
const STATUSES = ['Draft', 'Active', 'Active', 'Active', 'Under review', 'Closed'];

/** Risk i's main control is control floor(i/2), so control j's risks are 2j and 2j+1 (relations hold both ways). */
export function risk(c: Ctx, i: number): Rec {
  const r = c.rng('risk', i);
  const gl = 1 + r.int(5);
  const gi = 1 + r.int(5);
  const children = c.rootCauseLeaves;
  const controls = new Set([Math.floor(i / 2) % c.sizes.controls]);
  if (r.next() < 0.4) controls.add(r.int(c.sizes.controls));
  return {
    Id: c.guid('risk', i),
    Identifier: code('R', i),
    Name: `${r.pick(SUBJECTS)} ${r.pick(AREAS)}`,
    Description: `Risk of ${r.pick(SUBJECTS).toLowerCase()} ${r.pick(AREAS)}; generated record ${i + 1}.`,
    Organization: r.pick(ORGANIZATIONS),
    Owner: r.pick(ACTIVE_USERS),
    Status: r.pick(STATUSES),
    RiskCategory: r.pick(RISK_CATEGORIES),
    RootCauseCategoryGuids: r.distinct(children.length, 1 + r.int(2)).map((k) => children[k]!.GUID),
    GrossLikelihood: gl,
    GrossImpact: gi,
    NetLikelihood: 1 + r.int(gl),
    NetImpact: 1 + r.int(gi),
    DateIdentified: dateBefore(400 + r.int(2000)),
    LastReviewDate: r.next() < 0.8 ? dateBefore(r.int(365)) : null,
    ControlGuids: [...controls].map((k) => c.guid('control', k)),
    FrameworkDimensions: r
      .distinct(FRAMEWORK_DIMENSIONS.length, r.int(3))
      .map((k) => FRAMEWORK_DIMENSIONS[k]!),
  };
}

export function riskTables(c: Ctx): Record<string, Table> {
  const n = c.sizes.risks;
  const visible = c.st.riskFields.filter((f) => f.Visible);
  return {
    risk: table(n, (i) => risk(c, i)),
    risiko: table(n, (i) => {
      const x = risk(c, i);
      return {
        Id: x.Id,
        Identifier: x.Identifier,
        Name: x.Name,
        Organization: x.Organization,
        Status: x.Status,
        Likelihood: x.GrossLikelihood,
        Impact: x.GrossImpact,
      };
    }),
    // The spec's table names this dataset "riskcustomfields" and gives it the values (see the catalogue).
    riskcustomfields: table(n, (i) => {
      const r = c.rng('risk', i, 1);
      // A multi-select holds one name/value pair per chosen option.
      const values = visible
        .filter((f) => f.Required || r.next() < 0.5)
        .flatMap((f) => (f.Type === 'MultiSelect' ? chosenOptions(f, r) : [fieldValue(f, r)]).map((Value) => ({ Name: f.Name, Value })));
      return { RiskGuid: c.guid('risk', i), CustomFields: values };
    }),
    riskcustomfieldvalues: listTable(c.st.riskFields),
    riskrootcausecategory: listTable(c.st.rootCauses),
  };
}

/** A plausible stored value for a custom field, as the text the value datasets carry. */
export function fieldValue(
  f: { Type: string; AnswerOptions: { Name: string }[] },
  r: { int(n: number): number; next(): number },
): string {
  switch (f.Type) {
    case 'Dropdown':
    case 'MultiSelect':
      return f.AnswerOptions[r.int(f.AnswerOptions.length)]!.Name;
    case 'Checkbox':
      return r.next() < 0.5 ? 'true' : 'false';
    case 'Date':
      return dateBefore(r.int(700));
    case 'Number':
      return String(r.int(100_000));
    default:
      return `Note ${r.int(1000)}`;
  }
}
