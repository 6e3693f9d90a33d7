import type { FileWants } from './wants';

/** prestige.fastapi.json: written before it was first imported. */
export const wants: FileWants = {
  about:
    'FastAPI 0.115 / Pydantic 2, OpenAPI 3.1.0 JSON: anyOf [T, null] optionals, titles everywhere, generated operationIds ' +
    '(create_incident_incidents_post), snake_case, lower-case str enums (months, ready_for_review), 201 {id} creates, 422 ' +
    'HTTPValidationError, the incident hyperlink as an application/x-www-form-urlencoded body (Body_add_hyperlink_...), ' +
    'dict[UUID, ...] custom fields with propertyNames, a v2 task update whose nullable fields are all required.',
  incidents: {
    operation: 'POST /incidents',
    columns: {
      Name: '/name',
      Description: '/description',
      'Reporting organization': '/reporting_organization_id',
      'Affected organizations': '/affected_organization_ids/*',
      'Incident types': '/incident_type_ids/*',
      Classification: '/classification_id',
      'Root cause category': '/root_cause_category_id',
      'Root cause': '/root_cause',
      'Date detected': { at: '/date_detected', date: 'date' },
      'Date occurred': { at: '/date_occurred', date: 'date' },
      Assessors: '/assessor_ids/*',
      Responsible: '/responsible_ids/*',
      Informed: '/informed_ids/*',
      'Business dimensions': '/business_dimension_ids/*',
      'Framework dimensions': '/framework_dimension_ids/*',
    },
    // "the option name for a dropdown; a list of option names for a multi-select", date_value for dates.
    customFields: {
      shape: 'entries',
      at: '/custom_fields',
      guid: '/custom_field_id',
      value: '/value',
      date: '/date_value',
      multi: 'array',
      select: 'name',
      dates: 'date',
    },
    hyperlink: {
      operation: 'POST /incidents/{incident_id}/hyperlinks',
      form: true,
      columns: { Hyperlink: '/url' },
    },
  },
  thirdparties: {
    operation: 'POST /third-parties/',
    columns: { Name: '/name', 'LEI code': '/lei_code', 'Framework dimensions': '/framework_dimension_ids/*' },
    // "Dropdown: the answer option id; multi-select: a list of answer option ids; dates as YYYY-MM-DD."
    customFields: { shape: 'map', at: '/custom_fields', multi: 'array', select: 'guid', dates: 'date' },
  },
  contracts: {
    operation: 'POST /third-parties/{third_party_id}/contracts',
    columns: {
      'Third party': 'path',
      Name: '/name',
      Services: '/services/*',
      'Start date': { at: '/start_date', date: 'date' },
      'End date': { at: '/end_date', date: 'date' },
      'Notice period': { at: '/notice_period', number: true },
      'Notice period unit': {
        at: '/notice_period_unit',
        enum: { None: 'none', Days: 'days', Weeks: 'weeks', Months: 'months' },
      },
    },
    customFields: { shape: 'map', at: '/custom_fields', multi: 'array', select: 'guid', dates: 'date' },
  },
  taskUpdate: {
    operation: 'PUT /v2/tasks/{task_id}',
    columns: {
      Task: 'path',
      Name: '/name',
      Description: '/description',
      'Responsible user': '/responsible_user_id',
      Reviewer: '/reviewer_id',
      'Action date': { at: '/action_date', date: 'date' },
      Score: '/score',
      Comment: '/comment',
      'Notification periods': '/notification_periods/*',
    },
  },
  taskScoreStatus: {
    operation: 'PATCH /v2/tasks/{task_id}/score-status',
    columns: {
      Task: 'path',
      Score: '/score',
      Comment: '/comment',
      Status: {
        at: '/status',
        enum: {
          'To do': 'todo',
          Rejected: 'rejected',
          'Ready for review': 'ready_for_review',
          'In review': 'in_review',
        },
      },
    },
  },
  taskAdvance: { operation: 'POST /v2/tasks/{task_id}/workflow/advance' },
  bound: {
    organizations: 'GET /organizations/',
    users: 'GET /users/',
    businessdimensions: 'GET /dimensions/business',
    frameworkdimensions: 'GET /dimensions/framework',
    incidenttypes: 'GET /incident-types/',
    incidentclassifications: 'GET /incident-classifications/',
    incidenttypecustomfields: 'GET /incident-types/custom-fields',
    riskrootcausecategory: 'GET /root-cause-categories/',
    thirdpartycustomfields: 'GET /third-parties/custom-fields',
    thirdpartycontractcustomfields: 'GET /contracts/custom-fields',
    tasks: 'GET /tasks/',
    thirdparty: 'GET /third-parties/',
    audit: 'GET /directdata/v1/audit',
    auditfinding: 'GET /directdata/v1/auditfinding',
    risk: 'GET /directdata/v3/risk',
    incidents: 'GET /directdata/v1/incidents',
    thirdpartycustomfieldvalues: 'GET /directdata/v1/thirdpartycustomfieldvalues',
    'incident-status': 'PUT /incidents/{incident_id}/status',
    'task-update': 'POST /v1/tasks/{task_id}',
  },
  neverBound: [
    'POST /incidents/{incident_id}/restore',
    'POST /incidents/{incident_id}/mois',
    'POST /forms/{form_id}/close',
  ],
};
