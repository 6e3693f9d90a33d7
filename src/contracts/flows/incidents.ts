import { DIRECTORY_DATASETS, placesOf, type FlowDescription } from './description';

/** The incident template's columns. */
export const INCIDENT_COLUMNS = {
  name: 'Name',
  reportingOrganization: 'Reporting organization',
  affectedOrganizations: 'Affected organizations',
  types: 'Incident types',
  classification: 'Classification',
  rootCauseCategory: 'Root cause category',
  rootCause: 'Root cause',
  description: 'Description',
  dateDetected: 'Date detected',
  dateOccurred: 'Date occurred',
  assessors: 'Assessors',
  responsible: 'Responsible',
  informed: 'Informed',
  businessDimensions: 'Business dimensions',
  frameworkDimensions: 'Framework dimensions',
  hyperlink: 'Hyperlink',
} as const;
const C = INCIDENT_COLUMNS;

/** The create's body fields and the columns they come from. */
export const INCIDENT_BODY_COLUMNS: Readonly<Record<string, string>> = {
  Name: C.name,
  ReportingOrganization: C.reportingOrganization,
  AffectedOrganizations: C.affectedOrganizations,
  IncidentTypes: C.types,
  Classification: C.classification,
  RootCauseCategory: C.rootCauseCategory,
  RootCause: C.rootCause,
  Description: C.description,
  DateDetected: C.dateDetected,
  DateOccurred: C.dateOccurred,
  Assessors: C.assessors,
  Responsible: C.responsible,
  Informed: C.informed,
  BusinessDimensions: C.businessDimensions,
  FrameworkDimensions: C.frameworkDimensions,
};

/**
 * Create incidents (spec, Incident): only the name and the reporting organization are required (rule 1);
 * the reporter is the key's owner (rule 3); a blank detection date is left to the service, which uses
 * today (rule 4). Hyperlinks are added after creation (rule 8).
 */
export const incidentsDescription: FlowDescription<'incidents'> = {
  id: 'incidents',
  title: 'Incidents',
  resultStatus: 'created',
  tableName: 'GrcIncidents',
  standingDatasets: [
    'incidenttypes',
    'incidentclassifications',
    'incidenttypecustomfields',
    'riskrootcausecategory',
    ...DIRECTORY_DATASETS,
  ],
  reconcileDataset: 'incidents',
  operations: ['incident-create'],
  places: { ...placesOf('incident-create', INCIDENT_BODY_COLUMNS), ...placesOf('incident-hyperlink', { Url: C.hyperlink }) },
  steps: { 'incident-hyperlink': { what: 'hyperlink', column: C.hyperlink, drop: true } },
  fieldsRead: {
    // find(): name, organization, description and detection date, registered since the row was sent.
    incidents: ['ReportingOrganization', 'Description', 'DateDetected', 'DateRegistered'],
    incidenttypecustomfields: '*',
  },
  datasetNeeds: {
    incidenttypes:
      "Incident types cannot be offered in a dropdown or checked by name: type each type's GUID.",
    incidentclassifications:
      "Classifications cannot be offered or checked by name: type the classification's GUID.",
    incidenttypecustomfields:
      'The custom fields of incident types get no columns, so no custom field values can be posted.',
    riskrootcausecategory:
      "Root cause categories cannot be offered or checked by name: type the category's GUID.",
    incidents:
      'A row whose outcome stayed unknown (the connection broke while it was sent) cannot be looked for in the service: it stays unknown, is never sent again by itself, and you check it in the service by hand.',
  },
};
