import type { FileWants } from './wants';

/** oscorp.swashbuckle-autorest.json: written before it was first imported. */
export const wants: FileWants = {
  about:
    'Swashbuckle.AspNetCore 6.5, OpenAPI 3.0.1 JSON, for AutoRest clients: CustomOperationIds "{Controller}_{Action}" ' +
    '(Incidents_Create, Tasks_UpdateData, Tasks_UpdateV1), a schema filter writing x-ms-enum {name, modelAsString: false, ' +
    'values: [{value, name, description}]} on integer enums, JSON bodies as application/json, text/json, application/*+json, ' +
    'answers as text/plain, application/json, text/json, bare uuid creates; no nullable markers.',
  incidents: {
    operation: 'POST /api/incidents',
    columns: {
      Name: '/name',
      Description: '/description',
      'Reporting organization': '/reportingOrganizationGuid',
      'Affected organizations': '/affectedOrganizationGuids/*',
      'Incident types': '/incidentTypeGuids/*',
      Classification: '/classificationGuid',
      'Root cause category': '/rootCauseCategoryGuid',
      'Root cause': '/rootCause',
      'Date detected': { at: '/dateDetected', date: 'date-time' },
      'Date occurred': { at: '/dateOccurred', date: 'date-time' },
      Assessors: '/assessorGuids/*',
      Responsible: '/responsibleGuids/*',
      Informed: '/informedGuids/*',
      'Business dimensions': '/businessDimensionGuids/*',
      'Framework dimensions': '/frameworkDimensionGuids/*',
    },
    // "Text, number, true/false, or the answer option's name." / "Multi-select fields take one entry per selected option."
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
    hyperlink: { operation: 'POST /api/incidents/{incidentGuid}/hyperlinks', columns: { Hyperlink: '/url' } },
  },
  thirdparties: {
    operation: 'POST /api/thirdparties',
    columns: { Name: '/name', 'LEI code': '/leiCode', 'Framework dimensions': '/frameworkDimensionGuids/*' },
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
  },
  contracts: {
    operation: 'POST /api/thirdparties/{thirdPartyGuid}/contracts',
    columns: {
      'Third party': 'path',
      Name: '/name',
      Services: '/services/*',
      'Start date': { at: '/startDate', date: 'date-time' },
      'End date': { at: '/endDate', date: 'date-time' },
      'Notice period': { at: '/noticePeriod', number: true },
      // x-ms-enum values [{0, None}, {1, Days}, {2, Weeks}, {3, Months}]
      'Notice period unit': { at: '/noticePeriodUnit', enum: { None: 0, Days: 1, Weeks: 2, Months: 3 } },
    },
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
  },
  taskUpdate: {
    operation: 'POST /api/taskdata/v2/tasks/{taskGuid}',
    columns: {
      Task: 'path',
      Name: '/name',
      Description: '/description',
      'Responsible user': '/responsibleUserGuid',
      Reviewer: '/reviewerGuid',
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
      // x-ms-enum values [{0, ToDo, "To do"}, {1, Rejected}, {2, ReadyForReview, "Ready for review"}, {3, InReview, "In review"}]
      Status: { at: '/status', enum: { 'To do': 0, Rejected: 1, 'Ready for review': 2, 'In review': 3 } },
    },
  },
  taskAdvance: { operation: 'POST /api/taskdata/v2/tasks/{taskGuid}/workflow/advance' },
  bound: {
    organizations: 'GET /api/organizations',
    users: 'GET /api/users',
    businessdimensions: 'GET /api/dimensions/business',
    frameworkdimensions: 'GET /api/dimensions/framework',
    incidenttypes: 'GET /api/incidenttypes',
    incidentclassifications: 'GET /api/incidentclassifications',
    incidenttypecustomfields: 'GET /api/incidenttypes/customfields',
    riskrootcausecategory: 'GET /api/directdata/v3/riskrootcausecategory',
    thirdpartycustomfields: 'GET /api/directdata/v1/thirdpartycustomfields',
    thirdpartycontractcustomfields: 'GET /api/directdata/v1/thirdpartycontractcustomfields',
    tasks: 'GET /api/tasks',
    thirdparty: 'GET /api/thirdparties',
    audit: 'GET /api/directdata/v1/audit',
    auditfinding: 'GET /api/directdata/v1/auditfinding',
    risk: 'GET /api/directdata/v3/risk',
    incidents: 'GET /api/directdata/v1/incidents',
    'task-update': 'POST /api/taskdata/v1/tasks/{taskGuid}',
  },
  neverBound: ['POST /api/incidents/{incidentGuid}/restore', 'POST /api/incidents/{incidentGuid}/mois'],
};
