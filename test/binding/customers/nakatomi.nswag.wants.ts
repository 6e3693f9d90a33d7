import type { FileWants } from './wants';

/** nakatomi.nswag.json: written before it was first imported. */
export const wants: FileWants = {
  about:
    'NSwag 14 / NJsonSchema 11, OpenAPI 3.0.0 JSON: operationIds Controller_Action, GUIDs as format "guid", integer enums ' +
    'with x-enumNames and explicit C# values (notice units 0/10/20/30, task statuses 1..4 in their own order), nullable ' +
    'enum refs as oneOf [ref], additionalProperties false, x-name / x-position, answers application/json only.',
  incidents: {
    operation: 'POST /api/v1/incidents',
    columns: {
      Name: '/incidentName',
      Description: '/description',
      'Reporting organization': '/reportingOrganizationId',
      'Affected organizations': '/affectedOrganizationIds/*',
      'Incident types': '/incidentTypeIds/*',
      Classification: '/classificationId',
      'Root cause category': '/rootCauseCategoryId',
      'Root cause': '/rootCause',
      'Date detected': { at: '/detectionDate', date: 'date-time' },
      'Date occurred': { at: '/occurrenceDate', date: 'date-time' },
      Assessors: '/assessorUserIds/*',
      Responsible: '/responsibleUserIds/*',
      Informed: '/informedUserIds/*',
      'Business dimensions': '/businessDimensionIds/*',
      'Framework dimensions': '/frameworkDimensionIds/*',
    },
    // "Text, number, checkbox or the selected option's name." / "A multi-select field takes one entry per selected option."
    customFields: {
      shape: 'entries',
      at: '/customFields',
      guid: '/fieldId',
      value: '/value',
      date: '/dateValue',
      multi: 'repeated',
      select: 'name',
      dates: 'date-time',
    },
    hyperlink: {
      operation: 'POST /api/v1/incidents/{incidentId}/hyperlinks',
      columns: { Hyperlink: '/hyperlink' },
    },
  },
  thirdparties: {
    operation: 'POST /api/v1/third-parties',
    columns: { Name: '/name', 'LEI code': '/lei', 'Framework dimensions': '/frameworkDimensionIds/*' },
    // "Dropdown and multi-select: the answer option id (one entry per selected option of a multi-select). Dates as yyyy-MM-dd."
    customFields: {
      shape: 'entries',
      at: '/customFieldAnswers',
      guid: '/customFieldId',
      value: '/value',
      multi: 'repeated',
      select: 'guid',
      dates: 'date',
    },
  },
  contracts: {
    operation: 'POST /api/v1/third-parties/{thirdPartyId}/contracts',
    columns: {
      'Third party': 'path',
      Name: '/title',
      Services: '/services/*',
      'Start date': { at: '/startDate', date: 'date-time' },
      'End date': { at: '/endDate', date: 'date-time' },
      'Notice period': { at: '/noticePeriodValue', number: true },
      // x-enumNames ["None","Days","Weeks","Months"], enum [0, 10, 20, 30]
      'Notice period unit': { at: '/noticePeriodUnit', enum: { None: 0, Days: 10, Weeks: 20, Months: 30 } },
    },
    customFields: {
      shape: 'entries',
      at: '/customFieldAnswers',
      guid: '/customFieldId',
      value: '/value',
      multi: 'repeated',
      select: 'guid',
      dates: 'date',
    },
  },
  taskUpdate: {
    operation: 'PUT /api/v2/tasks/{taskId}',
    columns: {
      Task: 'path',
      Name: '/name',
      Description: '/description',
      'Responsible user': '/responsibleUserId',
      Reviewer: '/reviewerUserId',
      'Action date': { at: '/actionDate', date: 'date-time' },
      Score: '/score',
      Comment: '/comment',
      'Notification periods': '/notificationPeriods/*',
    },
  },
  taskScoreStatus: {
    operation: 'POST /api/v2/tasks/{taskId}/score-and-status',
    columns: {
      Task: 'path',
      Score: '/score',
      Comment: '/comment',
      // x-enumNames ["ToDo","InReview","ReadyForReview","Rejected"], enum [1, 2, 3, 4]
      Status: { at: '/status', enum: { 'To do': 1, 'In review': 2, 'Ready for review': 3, Rejected: 4 } },
    },
  },
  taskAdvance: { operation: 'POST /api/v2/tasks/{taskId}/workflow/advance' },
  bound: {
    organizations: 'GET /api/v1/organizations',
    users: 'GET /api/v1/users',
    businessdimensions: 'GET /api/v1/dimensions/business',
    frameworkdimensions: 'GET /api/v1/dimensions/framework',
    incidenttypes: 'GET /api/v1/incident-types',
    incidentclassifications: 'GET /api/v1/incident-classifications',
    incidenttypecustomfields: 'GET /api/v1/incident-types/custom-fields',
    riskrootcausecategory: 'GET /api/directdata/v3/riskrootcausecategory',
    thirdpartycustomfields: 'GET /api/directdata/v1/thirdpartycustomfields',
    thirdpartycontractcustomfields: 'GET /api/directdata/v1/thirdpartycontractcustomfields',
    tasks: 'GET /api/v1/tasks',
    thirdparty: 'GET /api/v1/third-parties',
    audit: 'GET /api/directdata/v1/audit',
    auditfinding: 'GET /api/directdata/v1/auditfinding',
    risk: 'GET /api/directdata/v3/risk',
    incidents: 'GET /api/directdata/v1/incidents',
    'incident-status': 'PUT /api/v1/incidents/{incidentId}/status',
    'task-update': 'PUT /api/v1/tasks/{taskId}',
    'formresult-create': 'POST /api/v1/forms/{formId}/results',
  },
  neverBound: [
    'POST /api/v1/incidents/{incidentId}/restore',
    'POST /api/v1/incidents/{incidentId}/mois',
    'POST /api/v1/forms/{formId}/close',
  ],
};
