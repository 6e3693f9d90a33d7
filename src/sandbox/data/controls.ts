import { ACTIVE_USERS, ORGANIZATIONS } from './standing';
import { code, dateAfter, listTable, table, type Ctx, type Rec, type Table } from './context';
import { valuesTable } from './field-values';

const KINDS = [
  'Segregation of duties',
  'Four-eyes approval',
  'Access review',
  'Reconciliation',
  'Backup test',
  'Vendor review',
];

/**
 * Test plan statuses in the order plans go through them. "Testing - awaiting conclusion" is the one the
 * spec names; the others are our names for the phases (Upload Evidence, Testing, Review) and their ends.
 */
export const TEST_PLAN_FLOW = [
  { Status: 'Upload evidence - in progress', Phase: 'Upload Evidence' },
  { Status: 'Testing - in progress', Phase: 'Testing' },
  { Status: 'Testing - awaiting conclusion', Phase: 'Testing' },
  { Status: 'Review - in progress', Phase: 'Review' },
  { Status: 'Review - finished', Phase: 'Review' },
] as const;
export const AWAITING_CONCLUSION = 'Testing - awaiting conclusion';

export function control(c: Ctx, j: number): Rec {
  const r = c.rng('control', j);
  const risks = [2 * j, 2 * j + 1].filter((i) => i < c.sizes.risks);
  const testers = r.distinct(ACTIVE_USERS.length, 1 + r.int(2)).map((k) => ACTIVE_USERS[k]!);
  return {
    Id: c.guid('control', j),
    Identifier: code('C', j),
    Name: `${r.pick(KINDS)} ${j + 1}`,
    Owner: r.pick(ACTIVE_USERS),
    Organization: r.pick(ORGANIZATIONS),
    RiskGuids: risks.map((i) => c.guid('risk', i)),
    Testers: testers,
    Administrators: [ACTIVE_USERS.find((u) => !testers.includes(u))!],
  };
}

/** Test plans cycle through the flow; every twelfth is a non-occurrence plan (another workflow, no final score). */
export function testPlan(c: Ctx, i: number): Rec {
  const r = c.rng('testPlan', i);
  const step = TEST_PLAN_FLOW[i % TEST_PLAN_FLOW.length]!;
  const testerDue = 10 + r.int(60);
  return {
    Id: c.guid('testPlan', i),
    ControlGuid: c.guid('control', i % Math.min(5, c.sizes.controls)),
    Name: `Test plan ${i + 1}`,
    Status: step.Status,
    Phase: step.Phase,
    NonOccurrence: i % 12 === 7,
    Score: null,
    Comment: null,
    TesterDueDate: dateAfter(testerDue),
    ReviewerDueDate: dateAfter(testerDue + 7 + r.int(14)),
  };
}

export function controlTables(c: Ctx): Record<string, Table> {
  const { controls, testPlans } = c.sizes;
  const valued = c.st.controlFields.filter((f) => f.Visible);
  return {
    control: table(controls, (j) => control(c, j)),
    controltestplan: table(testPlans, (i) => testPlan(c, i)),
    controlcustomfields: listTable(c.st.controlFields),
    controlcustomfieldvalues: valuesTable(c, 'control', 'ControlGuid', controls, valued),
    samples: table(testPlans * 2, (i) => {
      const plan = Math.floor(i / 2);
      return {
        Id: c.guid('sample', i),
        TestPlanId: c.guid('testPlan', plan),
        Name: `Sample ${(i % 2) + 1} of test plan ${plan + 1}`,
        DocumentGuid: c.guid('document', i),
        DocumentName: `evidence-${plan + 1}-${(i % 2) + 1}.pdf`,
      };
    }),
  };
}
