import { z } from 'zod';
import { dateValue, guidValue } from './fields';
import { checkLei } from './lei';

/**
 * Request and answer shapes of the write operations. These check shape, and the LEI code (a self-contained
 * check: no call outside the write-back flow may send an invalid one); the service's business rules
 * (required-for-acceptance fields, notice periods, ...) live in the writeback flows and in the sandbox,
 * which both cite the spec rule they enforce.
 */

/** A custom field entry: CustomFieldGuid with either Value or DateValue (spec, Incident create shape). */
export const customFieldEntry = z
  .object({
    CustomFieldGuid: guidValue(),
    Value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    DateValue: dateValue().optional(),
  })
  .refine((e) => (e.Value === undefined) !== (e.DateValue === undefined), {
    message: 'a custom field entry has either Value or DateValue',
  });

const names = z.array(z.string().min(1));

export const createIncident = z.object({
  Name: z.string(),
  ReportingOrganization: z.string(),
  AffectedOrganizations: names.optional(),
  RootCauseCategory: guidValue().optional(),
  RootCause: z.string().optional(),
  IncidentTypes: z.array(guidValue()).optional(),
  Classification: guidValue().optional(),
  Description: z.string().optional(),
  DateDetected: dateValue().optional(),
  DateOccurred: dateValue().optional(),
  Assessors: names.optional(),
  Responsible: names.optional(),
  Informed: names.optional(),
  BusinessDimensions: names.optional(),
  FrameworkDimensions: names.optional(),
  CustomFields: z.array(customFieldEntry).optional(),
});

/** Hyperlink: at most 32,767 characters, no line breaks or whitespace (spec, Hyperlink). */
export const hyperlinkUrl = z
  .string()
  .min(1)
  .max(32767, 'a hyperlink is at most 32,767 characters')
  .regex(/^\S+$/, 'a hyperlink may not contain whitespace or line breaks');

export const addHyperlink = z.object({
  Url: hyperlinkUrl,
  Description: z.string().optional(),
  HyperlinkTypeGuid: guidValue().optional(),
});

/** Document upload: body shape not shown in the spec; assumed JSON with base64 content. */
export const addDocument = z.object({ FileName: z.string().min(1), ContentBase64: z.string() });

export const INCIDENT_STATUSES = [
  'Waiting for acceptance',
  'Waiting for improvements',
  'Ready for review',
  'Rejected',
  'Approved',
] as const;
export const changeIncidentStatus = z.object({ Status: z.enum(INCIDENT_STATUSES) });

export const createThirdParty = z.object({
  Name: z.string(),
  // Spec: the LEI code has a validity check (ISO 17442). An empty code is no code.
  LeiCode: z
    .string()
    .superRefine((lei, ctx) => {
      const check = lei === '' ? { ok: true as const } : checkLei(lei);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    })
    .optional(),
  FrameworkDimensions: names.optional(),
  CustomFields: z.array(customFieldEntry).optional(),
});

export const NOTICE_PERIOD_UNITS = ['Months', 'Weeks', 'Days', 'None'] as const;
export const createContract = z.object({
  ThirdPartyGuid: guidValue(),
  Name: z.string(),
  Services: names.optional(),
  StartDate: dateValue().optional(),
  EndDate: dateValue().optional(),
  NoticePeriod: z.number().optional(),
  NoticePeriodUnit: z.enum(NOTICE_PERIOD_UNITS),
  CustomFields: z.array(customFieldEntry).optional(),
});

export const TASK_STATUSES = ['To do', 'Rejected', 'Ready for review', 'In review'] as const;
const taskHyperlink = z.object({ Url: hyperlinkUrl, Description: z.string().optional() });

export const createTask = z.object({
  Name: z.string().min(1),
  Description: z.string().optional(),
  ResponsibleUser: z.string().min(1),
  Reviewer: z.string().optional(),
  ActionDate: dateValue().optional(),
  NotificationPeriods: z.array(z.string()).optional(),
  Hyperlinks: z.array(taskHyperlink).optional(),
});

/** v1 update: partial. */
export const updateTaskV1 = z.object({
  Name: z.string().min(1).optional(),
  Description: z.string().optional(),
  ActionDate: dateValue().optional(),
  Score: z.number().optional(),
  Comment: z.string().optional(),
  NotificationPeriods: z.array(z.string()).optional(),
});

/** v2 update: a full update of every field an Application Administrator can edit; it does not submit. */
export const updateTaskV2 = z.object({
  Name: z.string().min(1),
  Description: z.string().nullable(),
  ResponsibleUser: z.string().min(1),
  Reviewer: z.string().nullable(),
  ActionDate: dateValue().nullable(),
  Score: z.number().nullable(),
  Comment: z.string().nullable(),
  NotificationPeriods: z.array(z.string()),
});

export const taskScoreAndStatus = z
  .object({
    Score: z.number().optional(),
    Comment: z.string().optional(),
    Status: z.enum(TASK_STATUSES).optional(),
  })
  .refine((b) => b.Score !== undefined || b.Status !== undefined || b.Comment !== undefined, {
    message: 'give a score, a comment or a status',
  });

export const createFormResult = z.object({
  Values: z.array(
    z.object({ FieldName: z.string().min(1), Value: z.union([z.string(), z.number(), z.boolean()]) }),
  ),
});

export const generateSamples = z.object({ Count: z.number().int().min(1).max(1000) });
export const finalScore = z.object({ Score: z.number(), Comment: z.string() });

/** Answers. A create returns the new record's GUID (spec); assumed to come as {"Id": "..."}. */
export const created = z.looseObject({ Id: guidValue() });
/** Document additions may answer with a warning instead of failing (spec, errors table). */
export const maybeWarning = z.looseObject({ Warning: z.string().optional() });
export const empty = z.unknown();
