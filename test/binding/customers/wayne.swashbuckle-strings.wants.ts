import type { FileWants } from './wants';

/** wayne.swashbuckle-strings.json: written before it was first imported. */
export const wants: FileWants = {
  about:
    'Swashbuckle.AspNetCore 6.5 on .NET 8 with JsonStringEnumConverter, OpenAPI 3.0.1 JSON: string enums by C# member name ' +
    '(ToDo, ReadyForReview), class-name schema ids, no operationIds, /api/v{version}/ kept with a required version path ' +
    'parameter whose default is the API version ("1.0", "2.0" for the task v2 operations), DateOnly (format: date), ' +
    'custom fields as dictionaries keyed by field GUID, 201 + bare uuid creates, British "Organisation".',
  incidents: {
    operation: 'POST /api/v{version}/Incidents',
    pathLike: '^(/api)?/v1(\\.0)?/Incidents$',
    columns: {
      Name: '/name',
      Description: '/details',
      'Reporting organization': '/reportingOrganisationId',
      'Affected organizations': '/affectedOrganisationIds/*',
      'Incident types': '/typeIds/*',
      Classification: '/classificationId',
      'Root cause category': '/rootCauseCategoryId',
      'Root cause': '/rootCauseDescription',
      'Date detected': { at: '/detectedOn', date: 'date' },
      'Date occurred': { at: '/occurredOn', date: 'date' },
      Assessors: '/assessors/*',
      Responsible: '/responsibles/*',
      Informed: '/informed/*',
      'Business dimensions': '/businessDimensions/*',
      'Framework dimensions': '/frameworkDimensions/*',
    },
    // "Dropdown answers are the answer option id; multi-select answers are option ids separated by semicolons;
    // dates as yyyy-MM-dd; checkboxes true/false."
    customFields: {
      shape: 'map',
      at: '/customFieldValues',
      multi: 'joined',
      separator: ';',
      select: 'guid',
      dates: 'date',
    },
    hyperlink: {
      operation: 'POST /api/v{version}/Incidents/{id}/Links',
      pathLike: '^(/api)?/v1(\\.0)?/Incidents/[^/]+/Links$',
      columns: { Hyperlink: '/address' },
    },
  },
  thirdparties: {
    operation: 'POST /api/v{version}/ThirdParties',
    pathLike: '^(/api)?/v1(\\.0)?/ThirdParties$',
    columns: { Name: '/name', 'LEI code': '/lei', 'Framework dimensions': '/frameworkDimensions/*' },
    customFields: {
      shape: 'map',
      at: '/customFieldValues',
      multi: 'array',
      select: 'name',
      dates: 'date',
      alwaysArray: true,
    },
  },
  contracts: {
    operation: 'POST /api/v{version}/Contracts',
    pathLike: '^(/api)?/v1(\\.0)?/Contracts$',
    columns: {
      'Third party': '/thirdPartyId',
      Name: '/contractName',
      Services: '/services/*',
      'Start date': { at: '/startsOn', date: 'date' },
      'End date': { at: '/endsOn', date: 'date' },
      'Notice period': { at: '/noticePeriod/length', number: true },
      'Notice period unit': {
        at: '/noticePeriod/unit',
        enum: { None: 'None', Days: 'Days', Weeks: 'Weeks', Months: 'Months' },
      },
    },
    customFields: {
      shape: 'map',
      at: '/customFieldValues',
      multi: 'array',
      select: 'name',
      dates: 'date',
      alwaysArray: true,
    },
  },
  taskUpdate: {
    // The version parameter's default for this operation is "2.0": the request goes to /api/v2.0/Tasks/{id}.
    operation: 'PUT /api/v{version}/Tasks/{id}',
    pathLike: '^(/api)?/v2(\\.0)?/Tasks/[^/]+$',
    columns: {
      Task: 'path',
      Name: '/name',
      Description: '/description',
      'Responsible user': '/responsibleUserId',
      Reviewer: '/reviewerUserId',
      'Action date': { at: '/actionDate', date: 'date' },
      Score: '/score',
      Comment: '/comment',
      'Notification periods': '/notificationPeriodIds/*',
    },
  },
  taskScoreStatus: {
    operation: 'PUT /api/v{version}/Tasks/{id}/Score',
    pathLike: '^(/api)?/v2(\\.0)?/Tasks/[^/]+/Score$',
    columns: {
      Task: 'path',
      Score: '/score',
      Comment: '/comment',
      Status: {
        at: '/status',
        enum: {
          'To do': 'ToDo',
          Rejected: 'Rejected',
          'Ready for review': 'ReadyForReview',
          'In review': 'InReview',
        },
      },
    },
  },
  taskAdvance: {
    operation: 'POST /api/v{version}/Tasks/{id}/Advance',
    pathLike: '^(/api)?/v2(\\.0)?/Tasks/[^/]+/Advance$',
  },
  bound: {
    organizations: 'GET /api/v{version}/Organisations',
    users: 'GET /api/v{version}/Users',
    businessdimensions: 'GET /api/v{version}/Dimensions/Business',
    frameworkdimensions: 'GET /api/v{version}/Dimensions/Framework',
    incidenttypes: 'GET /api/v{version}/Incidents/Types',
    incidentclassifications: 'GET /api/v{version}/Incidents/Classifications',
    incidenttypecustomfields: 'GET /api/v{version}/Incidents/CustomFields',
    riskrootcausecategory: 'GET /api/v{version}/RootCauseCategories',
    thirdpartycustomfields: 'GET /api/v{version}/ThirdParties/CustomFields',
    thirdpartycontractcustomfields: 'GET /api/v{version}/Contracts/CustomFields',
    tasks: 'GET /api/v{version}/Tasks',
    thirdparty: 'GET /api/v{version}/ThirdParties',
    risk: 'GET /directdata/v3/risk',
    incidents: 'GET /directdata/v1/incidents',
    audit: 'GET /directdata/v1/audit',
    auditfinding: 'GET /directdata/v1/auditfinding',
    'incident-status': 'PUT /api/v{version}/Incidents/{id}/State',
    'formresult-create': 'POST /api/v{version}/Forms/{id}/Results',
    'task-update': 'PATCH /api/v{version}/Tasks/{id}',
  },
  neverBound: [
    'POST /api/v{version}/Incidents/{id}/Restore',
    'POST /api/v{version}/Incidents/{id}/Mois',
    'POST /api/v{version}/Forms/{id}/Close',
    'GET /api/v{version}/DataManagement/Users',
  ],
};
