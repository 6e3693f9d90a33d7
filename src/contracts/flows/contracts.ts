import { placesOf, type FlowDescription } from './description';

/** The contract template's columns. */
export const CONTRACT_COLUMNS = {
  thirdParty: 'Third party',
  name: 'Name',
  services: 'Services',
  startDate: 'Start date',
  endDate: 'End date',
  noticePeriod: 'Notice period',
  noticePeriodUnit: 'Notice period unit',
} as const;
const C = CONTRACT_COLUMNS;

/** The create's body fields and the columns they come from. */
export const CONTRACT_BODY_COLUMNS: Readonly<Record<string, string>> = {
  ThirdPartyGuid: C.thirdParty,
  Name: C.name,
  Services: C.services,
  StartDate: C.startDate,
  EndDate: C.endDate,
  NoticePeriod: C.noticePeriod,
  NoticePeriodUnit: C.noticePeriodUnit,
};

/**
 * Create third-party contracts (spec, Third party contract): services, start and end date, a notice
 * period as a number plus a unit of months, weeks, days or none (no number needed with none), custom
 * fields. The end date may not precede the start date.
 */
export const contractsDescription: FlowDescription<'thirdpartycontract'> = {
  id: 'contracts',
  title: 'Contracts',
  resultStatus: 'created',
  tableName: 'GrcContracts',
  standingDatasets: ['thirdpartycontractcustomfields', 'thirdparty'],
  reconcileDataset: 'thirdpartycontract',
  operations: ['contract-create'],
  places: placesOf('contract-create', CONTRACT_BODY_COLUMNS),
  fieldsRead: {
    // find(): third party, name, start and end dates, created since the row was sent.
    thirdpartycontract: ['ThirdPartyGuid', 'StartDate', 'EndDate', 'DateCreated'],
    thirdpartycontractcustomfields: '*',
  },
  datasetNeeds: {
    thirdpartycontractcustomfields:
      'Contract custom fields get no columns, so no custom field values can be posted.',
    thirdparty:
      "Third parties cannot be offered in a dropdown or checked by name: type the third party's GUID in Third party.",
    thirdpartycontract:
      'A row whose outcome stayed unknown (the connection broke while it was sent) cannot be looked for in the service: it stays unknown, is never sent again by itself, and you check it in the service by hand.',
  },
};
