/**
 * What a catalogue field that names or points at a record MEANS: the standing-data list its value comes
 * from, and whether the catalogue's typed value is the record's name (a user picks it from a dropdown) or
 * its GUID. The importer uses this to choose an encoding for whatever shape the customer's file gives the
 * field (a GUID string, a {Guid, Name} object, an array of {id}), and the encoder looks names up in the
 * list. Fields in the same sense in every operation and dataset, so keyed by field name.
 */
export interface FieldMeaning {
  list?: string;
  value: 'name' | 'guid';
}

export const FIELD_MEANINGS: Readonly<Record<string, FieldMeaning>> = {
  ReportingOrganization: { list: 'organizations', value: 'name' },
  AffectedOrganizations: { list: 'organizations', value: 'name' },
  Organization: { list: 'organizations', value: 'name' },
  Organizations: { list: 'organizations', value: 'name' },
  Assessors: { list: 'users', value: 'name' },
  Responsible: { list: 'users', value: 'name' },
  Informed: { list: 'users', value: 'name' },
  ResponsibleUser: { list: 'users', value: 'name' },
  Reviewer: { list: 'users', value: 'name' },
  Owner: { list: 'users', value: 'name' },
  BusinessDimensions: { list: 'businessdimensions', value: 'name' },
  FrameworkDimensions: { list: 'frameworkdimensions', value: 'name' },
  IncidentTypes: { list: 'incidenttypes', value: 'guid' },
  Classification: { list: 'incidentclassifications', value: 'guid' },
  RootCauseCategory: { list: 'riskrootcausecategory', value: 'guid' },
  ThirdPartyGuid: { list: 'thirdparty', value: 'guid' },
  HyperlinkTypeGuid: { value: 'guid' },
  CustomFieldGuid: { value: 'guid' },
};

/**
 * Standing-data lists by the words a customer's property is named with (canonical words, see the
 * importer's words.ts): an extra column for `regulatorOrganisation` is a name looked up in organizations.
 */
export const LIST_WORDS: Readonly<Record<string, string>> = {
  organization: 'organizations',
  user: 'users',
  person: 'users',
  responsible: 'users',
  reviewer: 'users',
  assessor: 'users',
  businessdimension: 'businessdimensions',
  frameworkdimension: 'frameworkdimensions',
  incidenttype: 'incidenttypes',
  classification: 'incidentclassifications',
  rootcausecategory: 'riskrootcausecategory',
  thirdparty: 'thirdparty',
};
