import type { Area, Dataset } from './endpoint';
import * as r from './records';

const dd = { kind: 'directdata' } as const;

// Generic in the id and the record schema, so DatasetRecord (records.ts) types each dataset's records.
function ds<I extends string, S extends Dataset['record']>(
  id: I,
  path: string,
  area: Area,
  title: string,
  description: string,
  record: S,
  extra: Partial<Omit<Dataset, 'id' | 'record'>> = {},
): Dataset & { id: I; record: S } {
  const version = (/\/(v[123])\//.exec(path)?.[1] as Dataset['version']) ?? null;
  return { kind: 'dataset', method: 'GET', id, path, version, area, title, description, record, documented: true, access: dd, ...extra };
}

const assumed = { documented: false } as const;

/** Every GET dataset: the DirectData endpoints the spec lists, then the reads whose path it does not show. */
export const DATASETS = [
  ds('risk', '/directdata/v3/risk', 'Risks', 'Risks', 'All risks with gross and net scores, owner, status and linked controls (v3).', r.riskV3),
  ds('risiko', '/directdata/v1/risiko', 'Risks', 'Risks (old v1)', 'The older risk dataset. Use Risks (v3) instead.', r.risiko, { supersededBy: 'risk' }),
  // The spec's endpoint table names these two the other way round from what one expects; we follow the table.
  ds('riskcustomfields', '/directdata/v3/riskcustomfields', 'Risks', 'Risk custom field values', 'Per risk: the risk GUID and its custom field values as name/value pairs.', r.riskCustomFieldValues),
  ds('riskcustomfieldvalues', '/directdata/v3/riskcustomfieldvalues', 'Risks', 'Risk custom field definitions', 'Custom field definitions for risks: name, type, required, visible, answer options.', r.customFieldDefinition),
  ds('riskrootcausecategory', '/directdata/v3/riskrootcausecategory', 'Risks', 'Risk root cause categories', 'The root cause category tree: GUID and parent GUID per category.', r.rootCauseCategory),
  ds('incidents', '/directdata/v1/incidents', 'Incidents', 'Incidents', 'All incidents with status, dates, classification and the GUIDs of linked MOIs, risks and controls.', r.incident),
  ds('thirdpartycustomfields', '/directdata/v1/thirdpartycustomfields', 'Third parties', 'Third party custom field definitions', 'Definitions, invisible ones included.', r.customFieldDefinition),
  ds('thirdpartycustomfieldvalues', '/directdata/v1/thirdpartycustomfieldvalues', 'Third parties', 'Third party custom field values', 'Per third party, values of visible populated fields.', r.thirdPartyCustomFieldValue),
  ds('thirdpartycontractcustomfields', '/directdata/v1/thirdpartycontractcustomfields', 'Third parties', 'Contract custom field definitions', 'Definitions, invisible ones included.', r.customFieldDefinition),
  ds('thirdpartycontractcustomfieldvalues', '/directdata/v1/thirdpartycontractcustomfieldvalues', 'Third parties', 'Contract custom field values', 'Per contract, values, with ContractGuid.', r.contractCustomFieldValue),
  ds('controlcustomfields', '/directdata/v1/controlcustomfields', 'Controls', 'Control custom field definitions', 'Definitions, invisible ones included.', r.customFieldDefinition),
  ds('controlcustomfieldvalues', '/directdata/v1/controlcustomfieldvalues', 'Controls', 'Control custom field values', 'Per control, values of visible populated fields.', r.controlCustomFieldValue),
  ds('audit', '/directdata/v1/audit', 'Audits', 'Audits', 'Audits with objective, status, scores, linked objects and people.', r.audit),
  ds('auditfinding', '/directdata/v1/auditfinding', 'Audits', 'Audit findings', 'One row per audit finding, with its parent audit.', r.auditFinding),
  ds('audittype', '/directdata/v1/audittype', 'Audits', 'Audit types', 'Standing data: audit types.', r.standing),
  ds('audittypeobservationscore', '/directdata/v1/audittypeobservationscore', 'Audits', 'Observation scores per audit type', 'Standing data: observation scores per audit type.', r.auditTypeObservationScore),
  ds('auditscore', '/directdata/v1/auditscore', 'Audits', 'Audit scores', 'Standing data: audit scores.', r.standing),
  ds('auditcriticality', '/directdata/v1/auditcriticality', 'Audits', 'Audit criticality', 'Standing data: criticality values.', r.standing),
  ds('auditconfidentiality', '/directdata/v1/auditconfidentiality', 'Audits', 'Audit confidentiality', 'Standing data: confidentiality values.', r.standing),
  ds('auditseverity', '/directdata/v1/auditseverity', 'Audits', 'Finding severities', 'Standing data: finding severities.', r.standing),
  ds('auditfollowup', '/directdata/v1/auditfollowup', 'Audits', 'Finding follow-up values', 'Standing data: finding follow-up values.', r.standing),
  ds('auditworkflow', '/directdata/v1/auditworkflow', 'Audits', 'Audit workflows', 'Standing data: audit workflows.', r.auditWorkflow),
  ds('findingreportassessments', '/findingreportdata/findingreportassessments', 'Findings', 'Finding report assessments', 'Identifier and report name per finding report assessment.', r.findingReportAssessment),

  ds('incidentclassifications', '/incidentdata/v1/classifications', 'Incidents', 'Incident classifications', 'Standing data: incident classifications.', r.standing, { ...assumed, access: { kind: 'module', api: 'Incidents' } }),
  ds('incidenttypes', '/incidentdata/v1/incidenttypes', 'Incidents', 'Incident types', 'Standing data: incident types, active and archived.', r.incidentType, { ...assumed, access: { kind: 'module', api: 'Incidents' } }),
  ds('incidenttypecustomfields', '/incidentdata/v1/incidenttypecustomfields', 'Incidents', 'Incident type custom fields', 'Custom field definitions per incident type.', r.incidentTypeCustomField, { ...assumed, access: { kind: 'module', api: 'Incidents' } }),
  ds('incidenttypecustomfieldvalues', '/incidentdata/v1/incidenttypecustomfieldvalues', 'Incidents', 'Incident custom field values', 'Custom field values per incident, populated fields only.', r.incidentCustomFieldValue, { ...assumed, access: { kind: 'module', api: 'Incidents' } }),
  // Spec (Audit): these custom fields "exist with their values"; the endpoints are not listed, so paths are assumed.
  ds('auditcontextcustomfields', '/directdata/v1/auditcontextcustomfields', 'Audits', 'Audit context custom field definitions', 'Custom field definitions of the audit context.', r.customFieldDefinition, assumed),
  ds('auditcontextcustomfieldvalues', '/directdata/v1/auditcontextcustomfieldvalues', 'Audits', 'Audit context custom field values', 'Per audit, values of the audit context custom fields.', r.auditCustomFieldValue, assumed),
  ds('auditriskassessmentcustomfields', '/directdata/v1/auditriskassessmentcustomfields', 'Audits', 'Audit risk assessment custom field definitions', 'Custom field definitions of the audit risk assessment.', r.customFieldDefinition, assumed),
  ds('auditriskassessmentcustomfieldvalues', '/directdata/v1/auditriskassessmentcustomfieldvalues', 'Audits', 'Audit risk assessment custom field values', 'Per audit, values of the audit risk assessment custom fields.', r.auditCustomFieldValue, assumed),
  // Standing data write-back checks names against before sending (organizations, people, dimensions):
  // the spec names the fields but shows no dataset for them, so these paths are assumed.
  ds('organizations', '/directdata/v1/organizations', 'Standing data', 'Organizations', 'Standing data: the organization tree (reporting and affected organizations).', r.organization, assumed),
  ds('users', '/directdata/v1/users', 'Standing data', 'Users', 'Standing data: user profiles with e-mail; deleted users keep their roles but get no new ones.', r.user, assumed),
  ds('businessdimensions', '/directdata/v1/businessdimensions', 'Standing data', 'Business dimensions', 'Standing data: business dimensions.', r.dimension, assumed),
  ds('frameworkdimensions', '/directdata/v1/frameworkdimensions', 'Standing data', 'Framework dimensions', 'Standing data: framework dimensions.', r.dimension, assumed),
  ds('tasks', '/directdata/v1/tasks', 'Tasks', 'Tasks', 'Tasks with status, score, comment and action date.', r.task, assumed),
  ds('kri', '/directdata/v1/kri', 'KRIs', 'KRIs', 'All key risk indicators.', r.kri, assumed),
  ds('kridatavalues', '/directdata/v1/kridatavalues', 'KRIs', 'KRI data values', 'All KRI data values.', r.kriValue, assumed),
  ds('businessassessment', '/directdata/v1/businessassessment', 'Business assessments', 'Business assessments', 'Organization, dimension, reviewers, frequency, dates and reviews.', r.businessAssessment, assumed),
  ds('businessassessmentscore', '/directdata/v1/businessassessmentscore', 'Business assessments', 'Assessment scores', 'Standing data: assessment scores.', r.assessmentScore, assumed),
  ds('datamanagement', '/directdata/v1/datamanagement', 'Data management', 'Data management details', 'Details with linked MOIs, risks and controls.', r.dataManagementDetail, assumed),
  ds('datastructure', '/directdata/v1/datastructure', 'Data management', 'Data structures', 'Data structures per system.', r.dataStructure, assumed),
  ...(['risk', 'control', 'event', 'thirdparty', 'datamanagement', 'incident'] as const).map((t) =>
    ds(`moi-${t}`, `/directdata/v1/moi/${t}`, 'MOIs', `MOIs: ${t.replace('thirdparty', 'third party').replace('datamanagement', 'data management')}`, 'Measures of improvement with status and initial due date.', r.moi, assumed),
  ),
  ds('moi-bim', '/directdata/v1/moi/bim', 'MOIs', 'MOIs: BIM', 'Measures of improvement with status, initial due date and framework dimensions.', r.bimMoi, assumed),
  ds('formresults', '/formdata/v1/forms/{guid}/results', 'Forms', 'Form results', 'Results of one form; still available after fields or pages are deleted.', r.formResult, { ...assumed, access: { kind: 'module', api: 'Forms' } }),
  ds('samples', '/controldata/v1/testplans/{guid}/samples', 'Controls', 'Test plan samples', 'Samples of one control test plan with evidence document GUID and name.', r.sample, { ...assumed, access: { kind: 'module', api: 'Controls' } }),
  ds('thirdparty', '/directdata/v1/thirdparty', 'Third parties', 'Third parties', 'Third parties with LEI code and framework dimensions.', r.thirdParty, assumed),
  ds('thirdpartycontract', '/directdata/v1/thirdpartycontract', 'Third parties', 'Third party contracts', 'Contracts with services, start and end date and notice period.', r.contract, assumed),
  ds('control', '/directdata/v1/control', 'Controls', 'Controls', 'Controls with owner, linked risks, testers and administrators.', r.control, assumed),
  ds('controltestplan', '/directdata/v1/controltestplan', 'Controls', 'Control test plans', 'Test plans with status, phase, final score and comment.', r.testPlan, assumed),
] as const satisfies readonly Dataset[];
