import { valuesTable } from './field-values';
import { ACTIVE_USERS, BUSINESS_DIMENSIONS, FRAMEWORK_DIMENSIONS, ORGANIZATIONS } from './standing';
import { code, dateBefore, listTable, table, type Ctx, type Rec, type Table } from './context';

const FINDINGS_PER_AUDIT = 3;

function audit(c: Ctx, i: number): Rec {
  const r = c.rng('audit', i);
  const st = c.st;
  const start = 30 + r.int(700);
  const people = (n: number) => r.distinct(ACTIVE_USERS.length, n).map((k) => ACTIVE_USERS[k]!);
  return {
    Id: c.guid('audit', i),
    Identifier: code('AUD', i),
    Name: `${r.pick(st.auditTypes).Name} ${i + 1}`,
    Objective: 'Assess the design and operating effectiveness of key controls.',
    Motivation: r.pick(['Annual plan', 'Regulator request', 'Incident follow-up']),
    Conclusion: r.next() < 0.5 ? 'Controls operate effectively with minor findings.' : null,
    Plan: `Audit plan ${2024 + (i % 3)}`,
    Status: r.pick(['Planned', 'Fieldwork', 'Reporting', 'Closed']),
    Type: r.pick(st.auditTypes).Name,
    Criticality: r.pick(st.auditCriticality).Name,
    Confidentiality: r.pick(st.auditConfidentiality).Name,
    Score: r.pick(st.auditScores).Name,
    FindingReport: code('FRA', i),
    StartDate: dateBefore(start),
    EndDate: dateBefore(start - 20 - r.int(40)),
    ThirdPartyGuids: r.distinct(c.sizes.thirdParties, r.int(2)).map((k) => c.guid('thirdParty', k)),
    RiskGuids: r.distinct(c.sizes.risks, 1 + r.int(3)).map((k) => c.guid('risk', k)),
    ControlGuids: r.distinct(c.sizes.controls, 1 + r.int(3)).map((k) => c.guid('control', k)),
    UniverseObjects: [`Universe object ${1 + r.int(20)}`],
    Organizations: r.distinct(ORGANIZATIONS.length, 1 + r.int(2)).map((k) => ORGANIZATIONS[k]!),
    BusinessDimensions: [r.pick(BUSINESS_DIMENSIONS)],
    FrameworkDimensions: [r.pick(FRAMEWORK_DIMENSIONS)],
    Sponsors: people(1),
    Auditees: people(2),
    Auditors: people(2),
    Reviewers: people(1),
    ChiefAuditExecutives: people(1),
  };
}

export function auditTables(c: Ctx): Record<string, Table> {
  const st = c.st;
  const n = c.sizes.audits;
  return {
    audit: table(n, (i) => audit(c, i)),
    auditfinding: table(n * FINDINGS_PER_AUDIT, (i) => {
      const r = c.rng('finding', i);
      return {
        Id: c.guid('finding', i),
        AuditId: c.guid('audit', Math.floor(i / FINDINGS_PER_AUDIT)),
        Description: `Finding ${(i % FINDINGS_PER_AUDIT) + 1} of audit ${Math.floor(i / FINDINGS_PER_AUDIT) + 1}`,
        RootCause: r.pick(st.rootCauses).Name,
        Recommendation: 'Strengthen the control and document the evidence.',
        Severity: r.pick(st.auditSeverity).Name,
        Comment: null,
        ManagementResponse: r.next() < 0.6 ? 'Agreed; actions planned.' : null,
        ManagementResponseStatus: r.pick(['Pending', 'Agreed', 'Disputed']),
        FollowUpActions: r.pick(st.auditFollowUp).Name,
        MoiGuids: r.next() < 0.5 ? [c.guid('moi', r.int(c.sizes.moisPerType))] : [],
      };
    }),
    audittype: listTable(st.auditTypes),
    audittypeobservationscore: table(st.auditTypes.length * 3, (i) => ({
      Id: c.guid('standing', 10_000 + i),
      AuditTypeId: st.auditTypes[Math.floor(i / 3)]!.Id,
      Name: ['Adequate', 'Needs improvement', 'Inadequate'][i % 3]!,
      Score: 3 - (i % 3),
    })),
    auditscore: listTable(st.auditScores),
    auditcriticality: listTable(st.auditCriticality),
    auditconfidentiality: listTable(st.auditConfidentiality),
    auditseverity: listTable(st.auditSeverity),
    auditfollowup: listTable(st.auditFollowUp),
    auditworkflow: listTable(st.auditWorkflows),
    auditcontextcustomfields: listTable(st.auditContextFields),
    auditcontextcustomfieldvalues: valuesTable(c, 'audit', 'AuditGuid', n, st.auditContextFields.filter((f) => f.Visible)),
    auditriskassessmentcustomfields: listTable(st.auditRiskAssessmentFields),
    auditriskassessmentcustomfieldvalues: valuesTable(
      c,
      'audit',
      'AuditGuid',
      n,
      st.auditRiskAssessmentFields,
    ),
    findingreportassessments: table(n, (i) => ({
      Identifier: code('FRA', i),
      ReportName: `Finding report of audit ${i + 1}`,
    })),
  };
}
