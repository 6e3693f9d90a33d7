import type { FileWants } from './wants';

/** tyrell.swashbuckle.json: written before it was first imported. */
export const wants: FileWants = {
  about:
    'Swashbuckle.AspNetCore 6.5, OpenAPI 3.0.1 JSON: integer enums with meanings only in descriptions, FullName schema ids, ' +
    'no operationIds, versions substituted in the paths (/api/v1, /api/taskdata/v2), bare uuid create answers, ' +
    'nullable: true, text/plain + application/json + text/json answers, camelCase.',
  incidents: {
    operation: 'POST /api/v1/incidents',
    columns: {
      Name: '/name',
      Description: '/description',
      'Reporting organization': '/reportingOrganizationId',
      'Affected organizations': '/affectedOrganizationIds/*',
      'Incident types': '/incidentTypeIds/*',
      Classification: '/classificationId',
      'Root cause category': '/rootCauseCategoryId',
      'Root cause': '/rootCause',
      'Date detected': { at: '/dateDetected', date: 'date-time' },
      'Date occurred': { at: '/dateOccurred', date: 'date-time' },
      Assessors: '/assessorIds/*',
      Responsible: '/responsibleIds/*',
      Informed: '/informedIds/*',
      'Business dimensions': '/businessDimensionIds/*',
      'Framework dimensions': '/frameworkDimensionIds/*',
    },
    // "Give either value or dateValue. For a multi-select field give one entry per selected answer option."
    customFields: {
      shape: 'entries',
      at: '/customFields',
      guid: '/customFieldGuid',
      value: '/value',
      date: '/dateValue',
      multi: 'repeated',
      select: 'name',
      dates: 'date-time',
    },
    hyperlink: {
      operation: 'POST /api/v1/incidents/{incidentId}/hyperlinks',
      columns: { Hyperlink: '/url' },
    },
  },
  thirdparties: {
    operation: 'POST /api/v1/thirdparties',
    columns: {
      Name: '/name',
      'LEI code': '/leiCode',
      'Framework dimensions': '/frameworkDimensionIds/*',
    },
    // values: "Dropdown and multi-select fields: the answer option names (several for a multi-select). Dates as
    // yyyy-MM-dd. Checkboxes as true or false."
    customFields: {
      shape: 'entries',
      at: '/customFields',
      guid: '/customFieldId',
      value: '/values',
      multi: 'array',
      select: 'name',
      dates: 'date',
      alwaysArray: true,
    },
  },
  contracts: {
    operation: 'POST /api/v1/thirdparties/{thirdPartyId}/contracts',
    columns: {
      'Third party': 'path',
      Name: '/name',
      Services: '/services/*',
      'Start date': { at: '/startDate', date: 'date-time' },
      'End date': { at: '/endDate', date: 'date-time' },
      'Notice period': { at: '/noticePeriod', number: true },
      // "Unit of the notice period: 0 = None, 1 = Days, 2 = Weeks, 3 = Months"
      'Notice period unit': { at: '/noticePeriodUnit', enum: { None: 0, Days: 1, Weeks: 2, Months: 3 } },
    },
    customFields: {
      shape: 'entries',
      at: '/customFields',
      guid: '/customFieldId',
      value: '/values',
      multi: 'array',
      select: 'name',
      dates: 'date',
      alwaysArray: true,
    },
  },
  taskUpdate: {
    operation: 'POST /api/taskdata/v2/tasks/{taskGuid}',
    columns: {
      Task: 'path',
      Name: '/name',
      Description: '/description',
      'Responsible user': '/responsibleUserId',
      Reviewer: '/reviewerId',
      'Action date': { at: '/actionDate', date: 'date-time' },
      Score: '/score',
      Comment: '/comment',
      'Notification periods': '/notificationPeriods/*',
    },
  },
  taskScoreStatus: {
    operation: 'POST /api/taskdata/v2/tasks/{taskGuid}/scoreandstatus',
    columns: {
      Task: 'path',
      Score: '/score',
      Comment: '/comment',
      // "Task status: 0 = To do, 1 = Rejected, 2 = Ready for review, 3 = In review"
      Status: { at: '/status', enum: { 'To do': 0, Rejected: 1, 'Ready for review': 2, 'In review': 3 } },
    },
  },
  taskAdvance: { operation: 'POST /api/taskdata/v2/tasks/{taskGuid}/workflow/advance' },
  bound: {
    organizations: 'GET /api/v1/organizations',
    users: 'GET /api/v1/users',
    businessdimensions: 'GET /api/v1/dimensions/business',
    frameworkdimensions: 'GET /api/v1/dimensions/framework',
    incidenttypes: 'GET /api/v1/incidents/types',
    incidentclassifications: 'GET /api/v1/incidents/classifications',
    incidenttypecustomfields: 'GET /api/v1/incidents/types/customfields',
    incidenttypecustomfieldvalues: 'GET /api/v1/incidents/customfieldvalues',
    riskrootcausecategory: 'GET /api/directdata/v3/riskrootcausecategory',
    thirdpartycustomfields: 'GET /api/directdata/v1/thirdpartycustomfields',
    thirdpartycontractcustomfields: 'GET /api/directdata/v1/thirdpartycontractcustomfields',
    tasks: 'GET /api/taskdata/v1/tasks',
    thirdparty: 'GET /api/v1/thirdparties',
    risiko: 'GET /api/directdata/v1/risiko',
    risk: 'GET /api/directdata/v3/risk',
    incidents: 'GET /api/directdata/v1/incidents',
    audit: 'GET /api/directdata/v1/audit',
    auditfinding: 'GET /api/directdata/v1/auditfinding',
    datamanagement: 'GET /api/v1/datamanagement/details',
    datastructure: 'GET /api/v1/datamanagement/structures',
    'incident-document': 'POST /api/v1/incidents/{incidentId}/documents',
    'incident-status': 'PUT /api/v1/incidents/{incidentId}/status',
    'task-create': 'POST /api/taskdata/v1/tasks',
    'task-update': 'POST /api/taskdata/v1/tasks/{taskGuid}',
    'formresult-create': 'POST /api/v1/forms/{formId}/results',
    'final-score': 'POST /api/v1/controls/testplans/{testPlanId}/finalscore',
  },
  neverBound: [
    'POST /api/v1/incidents/{incidentId}/restore',
    'POST /api/v1/incidents/{incidentId}/moi',
    'POST /api/v1/forms/{formId}/close',
    'POST /api/v1/thirdparties/{thirdPartyId}/archive',
    'GET /api/v1/users/{userId}/apikeys',
  ],
};
