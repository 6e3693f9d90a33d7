import type { FileWants } from './wants';

/** duff.swagger.yaml: written before it was first imported. */
export const wants: FileWants = {
  about:
    'Hand-kept Swagger 2.0 YAML: basePath /api, global consumes/produces, definitions, x-nullable, YAML anchors and merge keys ' +
    '(<<: *pathGuid, <<: *errors, <<: *envelopeProps), GUIDs as strings with a pattern, dates as dd-MM-yyyy text said only ' +
    'in descriptions, {Result, Messages} write envelopes and {Items, Count} list envelopes, the incident hyperlink as in: ' +
    'formData (urlencoded), a type: file upload, notice units as letter codes explained in a description (N/D/W/M), ' +
    'task statuses as their display names, PascalCase.',
  incidents: {
    operation: 'POST /Incidents',
    columns: {
      Name: '/Name',
      Description: '/Description',
      'Reporting organization': '/ReportingOrganisationGuid',
      'Affected organizations': '/AffectedOrganisationGuids/*',
      'Incident types': '/IncidentTypeGuids/*',
      Classification: '/ClassificationGuid',
      'Root cause category': '/RootCauseCategoryGuid',
      'Root cause': '/RootCause',
      'Date detected': { at: '/DateDetected', date: 'dd-MM-yyyy' },
      'Date occurred': { at: '/DateOccurred', date: 'dd-MM-yyyy' },
      Assessors: '/AssessorGuids/*',
      Responsible: '/ResponsibleGuids/*',
      Informed: '/InformedGuids/*',
      'Business dimensions': '/BusinessDimensionGuids/*',
      'Framework dimensions': '/FrameworkDimensionGuids/*',
    },
    // "A multi-select field takes one entry per selected option ... Dropdown and multi-select answers are the option names."
    customFields: {
      shape: 'entries',
      at: '/CustomFields',
      guid: '/CustomFieldGuid',
      value: '/Value',
      date: '/DateValue',
      multi: 'repeated',
      select: 'name',
      dates: 'dd-MM-yyyy',
    },
    hyperlink: {
      operation: 'POST /Incidents/{incidentGuid}/Hyperlinks',
      form: true,
      columns: { Hyperlink: '/Url' },
    },
  },
  thirdparties: {
    operation: 'POST /ThirdParties',
    columns: { Name: '/Name', 'LEI code': '/LeiCode', 'Framework dimensions': '/FrameworkDimensionGuids/*' },
    customFields: {
      shape: 'entries',
      at: '/CustomFields',
      guid: '/CustomFieldGuid',
      value: '/Value',
      date: '/DateValue',
      multi: 'repeated',
      select: 'name',
      dates: 'dd-MM-yyyy',
    },
  },
  contracts: {
    operation: 'POST /ThirdParties/{thirdPartyGuid}/Contracts',
    columns: {
      'Third party': 'path',
      Name: '/Name',
      Services: '/Services/*',
      'Start date': { at: '/StartDate', date: 'dd-MM-yyyy' },
      'End date': { at: '/EndDate', date: 'dd-MM-yyyy' },
      'Notice period': { at: '/NoticePeriod/Value', number: true },
      // "Unit of the notice period: N = none, D = days, W = weeks, M = months."
      'Notice period unit': {
        at: '/NoticePeriod/Unit',
        enum: { None: 'N', Days: 'D', Weeks: 'W', Months: 'M' },
      },
    },
    customFields: {
      shape: 'entries',
      at: '/CustomFields',
      guid: '/CustomFieldGuid',
      value: '/Value',
      date: '/DateValue',
      multi: 'repeated',
      select: 'name',
      dates: 'dd-MM-yyyy',
    },
  },
  taskUpdate: {
    operation: 'POST /taskdata/v2/tasks/{taskGuid}',
    columns: {
      Task: 'path',
      Name: '/Name',
      Description: '/Description',
      'Responsible user': '/ResponsibleUserGuid',
      Reviewer: '/ReviewerGuid',
      'Action date': { at: '/ActionDate', date: 'dd-MM-yyyy' },
      Score: '/Score',
      Comment: '/Comment',
      'Notification periods': '/NotificationPeriods/*',
    },
  },
  taskScoreStatus: {
    operation: 'POST /taskdata/v2/tasks/{taskGuid}/score',
    columns: {
      Task: 'path',
      Score: '/Score',
      Comment: '/Comment',
      Status: {
        at: '/Status',
        enum: {
          'To do': 'To do',
          Rejected: 'Rejected',
          'Ready for review': 'Ready for review',
          'In review': 'In review',
        },
      },
    },
  },
  taskAdvance: { operation: 'POST /taskdata/v2/tasks/{taskGuid}/workflow/advance' },
  bound: {
    organizations: 'GET /Organisations',
    users: 'GET /Users',
    businessdimensions: 'GET /Dimensions/Business',
    frameworkdimensions: 'GET /Dimensions/Framework',
    incidenttypes: 'GET /IncidentTypes',
    incidentclassifications: 'GET /IncidentClassifications',
    incidenttypecustomfields: 'GET /IncidentTypes/CustomFields',
    riskrootcausecategory: 'GET /directdata/v3/riskrootcausecategory',
    thirdpartycustomfields: 'GET /directdata/v1/thirdpartycustomfields',
    thirdpartycontractcustomfields: 'GET /directdata/v1/thirdpartycontractcustomfields',
    tasks: 'GET /Tasks',
    thirdparty: 'GET /ThirdParties',
    audit: 'GET /directdata/v1/audit',
    'incident-document': 'POST /Incidents/{incidentGuid}/Documents',
    'task-update': 'POST /taskdata/v1/tasks/{taskGuid}',
  },
  neverBound: [
    'POST /Incidents/{incidentGuid}/Moi',
    'POST /Incidents/{incidentGuid}/Restore',
    'POST /Forms/{formGuid}/Close',
  ],
};
