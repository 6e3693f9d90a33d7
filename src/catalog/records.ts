import { z } from 'zod';
import { bool, date, datetime, guid, guidList, nested, number, text, textList } from './fields';

/**
 * Read shapes: one loose object per dataset record. Loose, so fields the service adds and we do not know
 * are kept and shown, not dropped. Field names are PascalCase renderings of the spec's names (the JSON
 * casing is not shown in the spec: an assumption, see DESIGN.md).
 */
const record = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape);

export const riskV3 = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Description: text(),
  Organization: text(),
  Owner: text(),
  Status: text(),
  RiskCategory: text(),
  RootCauseCategoryGuids: guidList(),
  GrossLikelihood: number(),
  GrossImpact: number(),
  NetLikelihood: number(),
  NetImpact: number(),
  DateIdentified: date(),
  LastReviewDate: date(),
  ControlGuids: guidList(),
  FrameworkDimensions: textList(),
});

export const risiko = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Organization: text(),
  Status: text(),
  Likelihood: number(),
  Impact: number(),
});

export const incident = record({
  Id: guid(),
  Name: text(),
  Identifier: text(),
  ReportingOrganization: text(),
  Description: text(),
  AffectedOrganizations: textList(),
  AffectedThirdParties: textList(),
  IncidentTypes: textList(),
  RootCauseCategory: text(),
  RootCause: text(),
  Classification: text(),
  DateDetected: date(),
  DateRegistered: datetime(),
  DateOccurred: date(),
  DateClosed: date(),
  Status: text(),
  Reporter: text(),
  MoiGuids: guidList(),
  RiskGuids: guidList(),
  ControlGuids: guidList(),
});

/** Custom field definitions: one shape for risks, third parties, contracts, controls and incident types. */
export const customFieldDefinition = record({
  Id: guid(),
  Name: text(),
  Type: text(),
  Required: bool(),
  Visible: bool(),
  AnswerOptions: nested(),
});

export const incidentTypeCustomField = record({ ...customFieldDefinition.shape, IncidentTypeId: guid() });

export const riskCustomFieldValues = record({ RiskGuid: guid(), CustomFields: nested() });
/** Spec: the v3 root cause category dataset has a GUID and a ParentGUID per entry (spelled so). */
export const rootCauseCategory = record({ GUID: guid(), ParentGUID: guid(), Name: text() });
export const thirdPartyCustomFieldValue = record({ ThirdPartyGuid: guid(), CustomFieldId: guid(), Value: text() });
export const contractCustomFieldValue = record({ ContractGuid: guid(), CustomFieldId: guid(), Value: text() });
export const controlCustomFieldValue = record({ ControlGuid: guid(), CustomFieldId: guid(), Value: text() });
/** Audit context and audit risk assessment custom field values: per audit (the owner property is assumed). */
export const auditCustomFieldValue = record({ AuditGuid: guid(), CustomFieldId: guid(), Value: text() });
export const incidentCustomFieldValue = record({ IncidentId: guid(), CustomFieldId: guid(), Value: text() });

export const audit = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Objective: text(),
  Motivation: text(),
  Conclusion: text(),
  Plan: text(),
  Status: text(),
  Type: text(),
  Criticality: text(),
  Confidentiality: text(),
  Score: text(),
  FindingReport: text(),
  StartDate: date(),
  EndDate: date(),
  ThirdPartyGuids: guidList(),
  RiskGuids: guidList(),
  ControlGuids: guidList(),
  UniverseObjects: textList(),
  Organizations: textList(),
  BusinessDimensions: textList(),
  FrameworkDimensions: textList(),
  Sponsors: textList(),
  Auditees: textList(),
  Auditors: textList(),
  Reviewers: textList(),
  ChiefAuditExecutives: textList(),
});

export const auditFinding = record({
  Id: guid(),
  AuditId: guid(),
  Description: text(),
  RootCause: text(),
  Recommendation: text(),
  Severity: text(),
  Comment: text(),
  ManagementResponse: text(),
  ManagementResponseStatus: text(),
  FollowUpActions: text(),
  MoiGuids: guidList(),
});

/** Standing data lists (audit types, scores, severities, classifications, ...). */
export const standing = record({ Id: guid(), Name: text(), Description: text(), Order: number() });
export const auditTypeObservationScore = record({ Id: guid(), AuditTypeId: guid(), Name: text(), Score: number() });
export const auditWorkflow = record({ Id: guid(), Name: text(), Steps: textList() });
// Who and where: organizations, people and dimensions that incidents and third parties name. The spec
// shows no dataset for them; these shapes are assumed (see the datasets' documented: false).
export const organization = record({ Id: guid(), Name: text(), ParentId: guid() });
export const user = record({ Id: guid(), Name: text(), Email: text(), Deleted: bool() });
export const dimension = record({ Id: guid(), Name: text() });
export const incidentType = record({ Id: guid(), Name: text(), Standard: bool(), Archived: bool() });
export const findingReportAssessment = record({ Identifier: text(), ReportName: text() });

export const task = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Description: text(),
  Status: text(),
  Score: number(),
  Comment: text(),
  ActionDate: date(),
  ResponsibleUser: text(),
  Reviewer: text(),
  NotificationPeriods: textList(),
  /** Spec (Task, known fields): documents and hyperlinks; entry shapes assumed: {Id, FileName, Added}, {Url, Description}. */
  Documents: nested(),
  Hyperlinks: nested(),
});

export const kri = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Unit: text(),
  LowerThreshold: number(),
  UpperThreshold: number(),
  FrameworkDimensions: textList(),
});
export const kriValue = record({ Id: guid(), KriId: guid(), Date: date(), Value: number() });

export const businessAssessment = record({
  Id: guid(),
  Organization: text(),
  BusinessDimension: text(),
  Reviewers: textList(),
  ReviewFrequency: text(),
  InitialDate: date(),
  NextReviewDate: date(),
  Reviews: nested(),
});
export const assessmentScore = record({ Id: guid(), Name: text(), Value: number() });

export const dataManagementDetail = record({
  Id: guid(),
  Name: text(),
  System: text(),
  Note: text(),
  MoiGuids: guidList(),
  RiskGuids: guidList(),
  ControlGuids: guidList(),
});
export const dataStructure = record({ Id: guid(), Name: text(), System: text(), Note: text() });

export const moi = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Status: text(),
  InitialDueDate: date(),
  LinkedObjectGuid: guid(),
});
export const bimMoi = record({ ...moi.shape, FrameworkDimensions: textList() });

export const formResult = record({ Id: guid(), FormId: guid(), SubmittedAt: datetime(), Values: nested() });
export const sample = record({
  Id: guid(),
  TestPlanId: guid(),
  Name: text(),
  DocumentGuid: guid(),
  DocumentName: text(),
});

export const thirdParty = record({
  Id: guid(),
  Name: text(),
  LeiCode: text(),
  FrameworkDimensions: textList(),
  DateCreated: datetime(),
});
export const contract = record({
  Id: guid(),
  ThirdPartyGuid: guid(),
  Name: text(),
  Services: textList(),
  StartDate: date(),
  EndDate: date(),
  NoticePeriod: number(),
  NoticePeriodUnit: text(),
  DateCreated: datetime(),
});
export const control = record({
  Id: guid(),
  Identifier: text(),
  Name: text(),
  Owner: text(),
  Organization: text(),
  RiskGuids: guidList(),
  Testers: textList(),
  Administrators: textList(),
});
export const testPlan = record({
  Id: guid(),
  ControlGuid: guid(),
  Name: text(),
  Status: text(),
  Phase: text(),
  NonOccurrence: bool(),
  Score: number(),
  Comment: text(),
  TesterDueDate: date(),
  ReviewerDueDate: date(),
});

/**
 * A read record as its schema knows it. The loose object's index signature (fields the service added) is
 * dropped, so reading a field the catalogue does not have, or no longer has under that name, fails to
 * compile. The client checks every record against its dataset's schema, so the type holds at run time.
 */
export type RecordOf<S extends z.ZodType> = KnownFields<z.infer<S>>;
type KnownFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
