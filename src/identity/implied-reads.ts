/**
 * What a write flow's implied read serves of each dataset it reads, when the policy does not name that
 * dataset itself: the fields the flow's validation and its reconcile (looking for a row whose outcome was
 * unknown) use, nothing more. A person who may post incidents sees every user's GUID and name (to pick a
 * responsible person), not their e-mail address. The relay applies it to the service's answer
 * (src/relay/projected-read.ts). A field the catalogue does not list stays out too.
 */

/** The GUID, the name, the identifier, and whether a record may still be picked. */
export const IDENTITY_FIELDS = ['Id', 'GUID', 'Guid', 'Identifier', 'Name', 'Deleted', 'Archived'] as const;

/** Beyond the identity fields, per dataset: what the flows' reconcile and validation read (src/writeback/flows). */
const EXTRA: Readonly<Record<string, readonly string[] | '*'>> = {
  // incidents flow: find() matches name, organization, description, detection date, registered since the send.
  incidents: ['ReportingOrganization', 'Description', 'DateDetected', 'DateRegistered'],
  // third parties: find() by name and LEI code, created since the send; the LEI is checked against existing ones.
  thirdparty: ['LeiCode', 'DateCreated'],
  // contracts: find() by third party, name, start and end dates, created since the send.
  thirdpartycontract: ['ThirdPartyGuid', 'StartDate', 'EndDate', 'DateCreated'],
  // Task updates send the whole task back (a full update keeps what the row does not change): whole records.
  tasks: '*',
};

/**
 * The fields an implied read of `datasetId` serves, or '*' for whole records: custom field definitions
 * (types, answer options, required: the columns and checks are made of them; no person's data) and the
 * datasets a flow must send back whole.
 */
export function impliedFields(datasetId: string): readonly string[] | '*' {
  const extra = EXTRA[datasetId];
  if (extra === '*' || /customfield/i.test(datasetId)) return '*';
  return [...IDENTITY_FIELDS, ...(extra ?? [])];
}
