import { placesOf, type FlowDescription } from './description';

/** The third party template's columns. */
export const THIRD_PARTY_COLUMNS = {
  name: 'Name',
  lei: 'LEI code',
  frameworkDimensions: 'Framework dimensions',
} as const;
const C = THIRD_PARTY_COLUMNS;
/** The create's body fields and the columns they come from. */
export const THIRD_PARTY_BODY_COLUMNS = { Name: C.name, LeiCode: C.lei, FrameworkDimensions: C.frameworkDimensions };

/** Create third parties (spec, Third party): custom fields, framework dimensions, LEI code with its check. */
export const thirdPartiesDescription: FlowDescription<'thirdparty'> = {
  id: 'thirdparties',
  title: 'Third parties',
  resultStatus: 'created',
  tableName: 'GrcThirdParties',
  standingDatasets: ['thirdpartycustomfields', 'frameworkdimensions'],
  reconcileDataset: 'thirdparty',
  operations: ['thirdparty-create'],
  places: placesOf('thirdparty-create', THIRD_PARTY_BODY_COLUMNS),
  fieldsRead: {
    // find(): name and LEI code, created since the row was sent; a LEI is checked against the existing ones.
    thirdparty: ['LeiCode', 'DateCreated'],
    thirdpartycustomfields: '*',
  },
  datasetNeeds: {
    thirdpartycustomfields:
      'Third party custom fields get no columns, so no custom field values can be posted.',
    thirdparty:
      'A row whose outcome stayed unknown (the connection broke while it was sent) cannot be looked for in the service: it stays unknown, is never sent again by itself, and you check it in the service by hand.',
  },
};
