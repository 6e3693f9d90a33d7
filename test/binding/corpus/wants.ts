/**
 * Where each corpus file wants each typed value, written from reading the file (not from the importer): for
 * every flow, template column -> JSON pointer(s) in the request body. `*` stands for every entry of an array;
 * several pointers are alternatives (a oneOf). `path` means the value is a path parameter (its GUID in the
 * request path). Custom field answers: the array and, inside an entry, where the field's GUID, a value and a
 * date value go. A template column with no entry here and no extra column of the binding fails the test: the
 * importer offered a column whose value the file has no place for.
 */
export interface CustomFieldPlace {
  at: string;
  /** Entries: where the field's GUID is in one. A map keyed by the field's GUID has none (`map`). */
  guid: string;
  value: string;
  /** Absent: dates go in `value` as text. */
  date?: string;
  /** The answers are a map keyed by the field's GUID: `at` is the map, the value is the field's member. */
  map?: boolean;
  /** Several options of a multi-select in one text, separated by this (the file's description says). */
  separator?: string;
  /** How a date answer is written (a pattern such as dd-MM-yyyy): read back before comparing. */
  datePattern?: string;
}

export interface FlowWants {
  /** Column header -> pointer(s), or 'path' (the named record's GUID is in the request path). */
  columns: Record<string, string | string[]>;
  customFields?: CustomFieldPlace;
  /** Where the incident hyperlink's address goes in the add-hyperlink request. */
  hyperlink?: string;
  /** The notice period number and unit joined in one text property (vandelay). */
  joinedNotice?: string;
  /** The file writes this flow's dates in its own pattern (pinewood's dd-MM-yyyy): read back before comparing. */
  datePattern?: string;
  /** Column -> typed value -> the file's value of that meaning (an integer enum: "Months" -> 3). */
  enums?: Record<string, Record<string, string | number>>;
}

export type FileWants = Partial<Record<'incidents' | 'thirdparties' | 'contracts' | 'tasks', FlowWants>>;

const people = (prefix: string, suffix = '', pascal = false) => ({
  Assessors: `${prefix}/${pascal ? 'Assessors' : 'assessors'}/*${suffix}`,
  Responsible: `${prefix}/${pascal ? 'Responsible' : 'responsible'}/*${suffix}`,
  Informed: `${prefix}/${pascal ? 'Informed' : 'informed'}/*${suffix}`,
});

export const WANTS: Record<string, FileWants> = {
  'juniper.openapi.yaml': {
    incidents: {
      columns: {
        Name: '/Subject',
        Description: '/Description',
        'Reporting organization': '/ReportingOrganisation/Guid',
        'Affected organizations': '/AffectedOrganisations/*/Guid',
        'Incident types': '/IncidentTypes/*/Guid',
        Classification: '/Classification/Guid',
        'Root cause category': '/RootCauseCategory/Guid',
        'Root cause': '/RootCause',
        'Date detected': '/DetectionDate',
        'Date occurred': '/OccurrenceDate',
        ...people('', '', true),
      },
      datePattern: 'dd/MM/yyyy',
      customFields: { at: '/CustomFields', guid: '', value: '', map: true, separator: '|' },
      hyperlink: '/Link',
    },
    thirdparties: {
      columns: { Name: '/Name', 'LEI code': '/LEICode' },
      customFields: { at: '/CustomFieldAnswers', guid: '/CustomFieldGuid', value: '/Values' },
    },
    contracts: {
      columns: {
        'Third party': '/ThirdParty/Guid',
        Name: '/Name',
        Services: '/Services/*',
        'Start date': '/ContractStartDate',
        'End date': '/ContractEndDate',
        'Notice period': '/NoticePeriod',
        'Notice period unit': '/NoticePeriodUnit',
      },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    tasks: {
      columns: {
        Name: '/Name',
        Description: '/Description',
        'Responsible user': '/ResponsibleUser',
        Reviewer: '/Reviewer',
        'Action date': '/ActionDate',
        Score: '/Score',
        Comment: '/Comment',
        'Notification periods': '/NotificationPeriods/*',
      },
    },
  },
  'pinewood.swagger.yaml': {
    incidents: {
      columns: {
        Name: '/title',
        Description: '/summary',
        'Reporting organization': '/reporting_organisation_id',
        'Affected organizations': '/affected_organisation_ids/*',
        'Incident types': '/incident_type_ids/*',
        Classification: '/classification_id',
        'Root cause category': '/root_cause_category_id',
        'Root cause': '/root_cause',
        'Date detected': '/detected_on',
        'Date occurred': '/occurred_on',
        ...people(''),
      },
      datePattern: 'dd-MM-yyyy',
      customFields: { at: '/custom_fields', guid: '', value: '', map: true },
      hyperlink: '/link',
    },
    thirdparties: {
      columns: {
        Name: '/vendor_name',
        'LEI code': '/lei',
        'Framework dimensions': '/framework_dimensions/*',
      },
      customFields: { at: '/custom_field_values', guid: '/field_id', value: '/values' },
    },
    contracts: {
      columns: {
        'Third party': 'path',
        Name: '/title',
        Services: '/services/*',
        'Start date': '/start_date',
        'End date': '/end_date',
        'Notice period': '/notice_period',
        'Notice period unit': '/notice_period_unit',
      },
      customFields: {
        at: '/custom_fields',
        guid: '/custom_field_id',
        value: '/value',
        date: '/date_value',
        separator: ';',
      },
    },
    tasks: {
      columns: {
        Name: '/title',
        Description: '/description',
        'Action date': '/action_date',
        Score: '/score',
        Comment: '/comment',
        'Notification periods': '/notification_periods/*',
      },
    },
  },
  'northwind.swagger.yaml': {
    incidents: {
      columns: {
        Name: '/title',
        Description: '/summary',
        'Reporting organization': '/reporting_organisation_id',
        'Affected organizations': '/affected_organisation_ids/*',
        'Incident types': '/incident_type_ids/*',
        Classification: '/classification_id',
        'Root cause category': '/root_cause_category_id',
        'Root cause': '/root_cause',
        'Date detected': '/detected_on',
        'Date occurred': '/occurred_on',
        ...people(''),
      },
      customFields: {
        at: '/custom_field_answers',
        guid: '/field_id',
        value: '/answer',
        date: '/answer_date',
      },
      hyperlink: '/link',
    },
    thirdparties: {
      columns: {
        Name: '/vendor_name',
        'LEI code': '/lei',
        'Framework dimensions': '/framework_dimensions/*',
      },
    },
    contracts: {
      columns: {
        'Third party': 'path',
        Name: '/title',
        Services: '/services/*',
        'Start date': '/start_date',
        'End date': '/end_date',
        'Notice period': '/notice_period',
        'Notice period unit': '/notice_period_unit',
      },
    },
    tasks: {
      columns: {
        Name: '/title',
        Description: '/description',
        'Action date': '/action_date',
        Score: '/score',
        Comment: '/comment',
        'Notification periods': '/notification_periods/*',
      },
    },
  },
  'initech.openapi.json': {
    incidents: {
      columns: {
        Name: '/IncidentTitle',
        Description: '/Description',
        'Reporting organization': '/ReportingOrganisation/Guid',
        'Affected organizations': '/AffectedOrganisations/*/Guid',
        'Incident types': '/IncidentTypes/*/Guid',
        Classification: '/Classification/Guid',
        'Root cause category': '/RootCauseCategory/Guid',
        'Root cause': '/RootCause',
        'Date detected': '/DetectionDate',
        'Date occurred': '/OccurrenceDate',
        Assessors: '/Assessors/*/Guid',
        Responsible: '/Responsible/*/Guid',
        Informed: '/Informed/*/Guid',
        'Business dimensions': '/BusinessDimensions/*',
        'Framework dimensions': '/FrameworkDimensions/*',
      },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomField/Guid',
        value: '/Answer',
        date: '/AnswerDate',
      },
      hyperlink: '/Link',
    },
    thirdparties: {
      columns: { Name: '/Name', 'LEI code': '/LEICode', 'Framework dimensions': '/FrameworkDimensions/*' },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomField/Guid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    contracts: {
      columns: {
        'Third party': '/ThirdParty/Guid',
        Name: '/ContractName',
        Services: '/Services/*',
        'Start date': '/ContractStart',
        'End date': '/ContractEnd',
        'Notice period': '/NoticePeriod',
        'Notice period unit': '/NoticePeriodUnit',
      },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomField/Guid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    tasks: {
      columns: {
        Name: '/Name',
        Description: '/Description',
        'Responsible user': '/ResponsibleUser/Guid',
        Reviewer: '/Reviewer/Guid',
        'Action date': '/ActionDate',
        Score: '/Score',
        Comment: '/Comment',
        'Notification periods': '/NotificationPeriods/*',
      },
    },
  },
  'hooli.openapi.yaml': {
    incidents: {
      columns: {
        Name: '/data/subject',
        Description: '/data/narrative',
        'Reporting organization': '/data/reportingOrganisation/id',
        'Affected organizations': '/data/affectedOrganisations/*/id',
        'Incident types': '/data/incidentTypes/*/id',
        Classification: '/data/classification/id',
        'Root cause category': '/data/rootCause/category/id',
        'Root cause': '/data/rootCause/explanation',
        'Date detected': '/data/detectedAt',
        'Date occurred': '/data/occurredAt',
        ...people('/data/people'),
      },
      customFields: {
        at: '/data/customFieldValues',
        guid: '/customFieldId',
        value: '/textValue',
        date: '/dateValue',
      },
      hyperlink: '/data/url',
    },
    thirdparties: {
      columns: {
        Name: '/data/name',
        'LEI code': '/data/leiCode',
        'Framework dimensions': '/data/frameworkDimensions/*',
      },
    },
    contracts: {
      columns: {
        'Third party': 'path',
        Name: '/data/title',
        Services: '/data/services/*',
        'Start date': '/data/effectiveFrom',
        'End date': '/data/effectiveUntil',
        'Notice period': '/data/noticePeriod/amount',
        'Notice period unit': '/data/noticePeriod/unit',
      },
    },
    tasks: {
      columns: {
        Name: '/data/name',
        Description: '/data/description',
        'Responsible user': '/data/responsibleUser',
        Reviewer: '/data/reviewer',
        'Action date': '/data/actionDate',
        Score: '/data/score',
        Comment: '/data/comment',
        'Notification periods': '/data/notificationPeriods/*',
      },
    },
  },
  'vandelay.swagger.json': {
    incidents: {
      columns: {
        Name: '/IncidentName',
        Description: '/Description',
        'Reporting organization': '/ReportingOrganisationGuid',
        'Affected organizations': '/AffectedOrganisationGuids/*',
        'Incident types': '/IncidentCategoryGuids/*',
        Classification: '/SeverityGuid',
        'Root cause': '/RootCause',
        'Date detected': '/DateDetected',
        'Date occurred': '/DateOccurred',
        Assessors: '/AssessorUserGuids/*',
        Responsible: '/ResponsibleUserGuids/*',
        Informed: '/InformedUserGuids/*',
        'Business dimensions': '/BusinessDimensionGuids/*',
        'Framework dimensions': '/FrameworkDimensionGuids/*',
      },
      hyperlink: '/Url',
    },
    thirdparties: {
      columns: {
        Name: '/VendorName',
        'LEI code': '/LegalEntityIdentifier',
        'Framework dimensions': '/FrameworkDimensionGuids/*',
      },
      customFields: { at: '/CustomFieldValues', guid: '/FieldGuid', value: '/Value' },
    },
    contracts: {
      columns: {
        'Third party': 'path',
        Name: '/ContractName',
        Services: '/Services/*',
        'Start date': '/ContractStartDate',
        'End date': '/ContractEndDate',
      },
      joinedNotice: '/NoticePeriod',
      customFields: { at: '/CustomFieldValues', guid: '/FieldGuid', value: '/Value' },
    },
    tasks: {
      columns: {
        Name: '/Name',
        Description: '/Description',
        'Responsible user': '/ResponsibleUser',
        Reviewer: '/Reviewer',
        'Action date': '/ActionDate',
        Score: '/Score',
        Comment: '/Remark',
        'Notification periods': '/NotificationPeriods/*',
      },
    },
  },
  'soylent.openapi.yaml': {
    incidents: {
      columns: {
        Name: '/incident/name',
        Description: '/incident/description',
        'Reporting organization': [
          '/incident/reporting_organisation/id',
          '/incident/reporting_organisation/name',
        ],
        'Affected organizations': [
          '/incident/affected_organisations/*/id',
          '/incident/affected_organisations/*/name',
        ],
        'Incident types': '/incident/incident_type_ids/*',
        Classification: '/incident/classification_id',
        'Root cause category': '/incident/root_cause_category_id',
        'Root cause': '/incident/root_cause',
        'Date detected': '/incident/date_detected',
        'Date occurred': '/incident/date_occurred',
        ...people('/incident'),
        'Business dimensions': '/incident/business_dimensions/*',
        'Framework dimensions': '/incident/framework_dimensions/*',
      },
      customFields: {
        at: '/incident/custom_answers',
        guid: '/custom_field_id',
        value: '/value',
        date: '/date',
      },
      hyperlink: '/hyperlink/link',
    },
    thirdparties: {
      columns: {
        Name: '/third_party/name',
        'LEI code': '/third_party/lei_code',
        'Framework dimensions': '/third_party/framework_dimensions/*',
      },
      customFields: {
        at: '/third_party/custom_answers',
        guid: '/custom_field_id',
        value: '/value',
        date: '/date',
      },
    },
    contracts: {
      columns: {
        'Third party': 'path',
        Name: '/contract/name',
        Services: '/contract/services/*',
        'Start date': '/contract/start_date',
        'End date': '/contract/end_date',
        'Notice period': '/contract/notice_period',
        'Notice period unit': '/contract/notice_period_unit',
      },
    },
    tasks: {
      columns: {
        Name: '/task/name',
        Description: '/task/description',
        'Responsible user': '/task/responsible_user',
        Reviewer: '/task/reviewer',
        'Action date': '/task/action_date',
        Score: '/task/score',
        Comment: '/task/comment',
        'Notification periods': '/task/notification_periods/*',
      },
    },
  },
  'wonka.openapi.json': {
    incidents: {
      columns: {
        Name: '/Headline',
        Description: '/Details',
        'Reporting organization': '/ReportingOrganisations/*/Guid',
        'Affected organizations': '/AffectedOrganisations/*/Guid',
        'Incident types': '/Types/*/Guid',
        Classification: '/Classification/Guid',
        'Root cause category': '/RootCauseCategory/Guid',
        'Root cause': '/RootCause',
        'Date detected': '/DetectedOn',
        'Date occurred': '/OccurredOn',
        Assessors: '/Assessors/*/Guid',
        Responsible: '/Responsible/*/Guid',
        Informed: '/Informed/*/Guid',
        'Business dimensions': '/BusinessDimensions/*/Guid',
        'Framework dimensions': '/FrameworkDimensions/*/Guid',
      },
      customFields: { at: '/FieldAnswers', guid: '/Field/Guid', value: '/Text', date: '/Date' },
      hyperlink: '/Link',
    },
    thirdparties: {
      columns: {
        Name: '/SupplierName',
        'LEI code': '/Lei',
        'Framework dimensions': '/FrameworkDimensions/*/Guid',
      },
      customFields: { at: '/FieldAnswers', guid: '/Field/Guid', value: '/Text', date: '/Date' },
    },
    contracts: {
      columns: {
        'Third party': '/Supplier/Guid',
        Name: '/AgreementName',
        Services: '/Services/*',
        'Start date': '/Term/Start',
        'End date': '/Term/End',
        'Notice period': '/Notice/Length',
        'Notice period unit': '/Notice/Unit',
      },
      customFields: { at: '/FieldAnswers', guid: '/Field/Guid', value: '/Text', date: '/Date' },
    },
    tasks: {
      columns: {
        Name: '/Name',
        Description: '/Description',
        'Responsible user': '/ResponsibleUser',
        Reviewer: '/Reviewer',
        'Action date': '/ActionDate',
        Score: '/Score',
        Comment: '/Comment',
        'Notification periods': '/NotificationPeriods/*',
      },
    },
  },
  'cyberdyne.openapi.yaml': {
    incidents: {
      columns: {
        Name: '/Subject',
        Description: '/Description',
        'Reporting organization': '/ReportingOrganisation/Guid',
        'Affected organizations': '/AffectedOrganisations/*/Guid',
        'Incident types': '/IncidentTypes/*/Guid',
        Classification: '/Classification/Guid',
        'Root cause category': '/RootCauseCategory/Guid',
        'Root cause': '/RootCause',
        'Date detected': '/DetectionDate',
        'Date occurred': '/OccurrenceDate',
        ...people('', '', true),
      },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
      hyperlink: '/Link',
    },
    thirdparties: {
      columns: { Name: '/Name', 'LEI code': '/LEICode' },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    contracts: {
      columns: {
        'Third party': '/ThirdParty/Guid',
        Name: '/Name',
        Services: '/Services/*',
        'Start date': '/ContractStartDate',
        'End date': '/ContractEndDate',
        'Notice period': '/NoticePeriod',
        'Notice period unit': '/NoticePeriodUnit',
      },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    tasks: {
      columns: {
        Name: '/Name',
        Description: '/Description',
        'Responsible user': '/ResponsibleUser',
        Reviewer: '/Reviewer',
        'Action date': '/ActionDate',
        Score: '/Score',
        Comment: '/Comment',
        'Notification periods': '/NotificationPeriods/*',
      },
    },
  },
  'larkspur.swashbuckle.json': {
    incidents: {
      columns: {
        Name: '/Subject',
        Description: '/Description',
        'Reporting organization': '/ReportingOrganisation/Guid',
        'Affected organizations': '/AffectedOrganisations/*/Guid',
        'Incident types': '/IncidentTypes/*/Guid',
        Classification: '/Classification/Guid',
        'Root cause category': '/RootCauseCategory/Guid',
        'Root cause': '/RootCause',
        'Date detected': '/DetectionDate',
        'Date occurred': '/OccurrenceDate',
        ...people('', '', true),
      },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
      hyperlink: '/Link',
    },
    thirdparties: {
      columns: { Name: '/Name', 'LEI code': '/LEICode' },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    contracts: {
      columns: {
        'Third party': '/ThirdParty/Guid',
        Name: '/Name',
        Services: '/Services/*',
        'Start date': '/ContractStartDate',
        'End date': '/ContractEndDate',
        'Notice period': '/NoticePeriod',
        'Notice period unit': '/NoticePeriodUnit',
      },
      // The file's NoticePeriodUnit schema: integers, described "0 = None ... 3 = Months".
      enums: { 'Notice period unit': { None: 0, Days: 1, Weeks: 2, Months: 3 } },
      customFields: {
        at: '/CustomFieldAnswers',
        guid: '/CustomFieldGuid',
        value: '/Answer',
        date: '/AnswerDate',
      },
    },
    tasks: {
      columns: {
        Name: '/Name',
        Description: '/Description',
        'Responsible user': '/ResponsibleUser',
        Reviewer: '/Reviewer',
        'Action date': '/ActionDate',
        Score: '/Score',
        Comment: '/Comment',
        'Notification periods': '/NotificationPeriods/*',
      },
    },
  },
};
