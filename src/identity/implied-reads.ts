import { FLOW_DESCRIPTIONS } from '../contracts/flows';

/**
 * What a write flow's implied read serves of each dataset it reads, when the policy does not name that
 * dataset itself: the fields the flow's validation and its reconcile (looking for a row whose outcome was
 * unknown) use, nothing more. A person who may post incidents sees every user's GUID and name (to pick a
 * responsible person), not their e-mail address. Derived from the flows' descriptions (`fieldsRead`,
 * src/contracts/flows), not kept here. The relay applies it to the service's answer
 * (src/relay/projected-read.ts). A field the catalogue does not list stays out too.
 */

/** The GUID, the name, the identifier, and whether a record may still be picked: served of every dataset a flow reads. */
export const IDENTITY_FIELDS = ['Id', 'GUID', 'Guid', 'Identifier', 'Name', 'Deleted', 'Archived'] as const;

/** The fields an implied read of `datasetId` by flow `flowId` serves, or '*' for whole records. */
export function impliedFields(flowId: string, datasetId: string): readonly string[] | '*' {
  const read = FLOW_DESCRIPTIONS.find((f) => f.id === flowId)?.fieldsRead[datasetId];
  if (read === '*') return '*';
  return [...IDENTITY_FIELDS, ...(read ?? [])];
}

/** What two flows of one rule serve of a dataset together. */
export function joinFields(a: readonly string[] | '*' | undefined, b: readonly string[] | '*'): readonly string[] | '*' {
  if (a === undefined) return b;
  if (a === '*' || b === '*') return '*';
  return [...new Set([...a, ...b])];
}
