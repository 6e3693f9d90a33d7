import type { Placement } from '../catalog';

/**
 * What a catalogue operation adds to the custom field encoding the file's shape gave (encoding.ts): where a
 * select's options are listed (their names are looked up there), and the spec's rule on repeated entries.
 */

/** The custom field definitions (with their answer options) of each create that takes custom fields. */
const DEFINITIONS: Readonly<Record<string, string>> = {
  'incident-create': 'incidenttypecustomfields',
  'thirdparty-create': 'thirdpartycustomfields',
  'contract-create': 'thirdpartycontractcustomfields',
};

/**
 * Spec (Third party and contract; Errors): duplicate entries for one multi-select custom field are
 * rejected. Their creates never get one entry per option: joined where the value is text or anything.
 */
const NO_REPEATS = new Set(['thirdparty-create', 'contract-create']);

export function fitCustomFields(endpoint: string, placements: Placement[]): void {
  for (const p of placements) {
    const e = p.encoding;
    if (e.kind !== 'custom-fields') continue;
    const list = DEFINITIONS[endpoint];
    if (e.options === 'name' && list && !e.optionsList) e.optionsList = list;
    if (e.style === 'entries' && NO_REPEATS.has(endpoint) && (e.multi === undefined || e.multi === 'repeat'))
      e.multi = 'join';
  }
}

/** Why an admin's custom field encoding cannot be used on this operation, if it cannot. */
export function customFieldsRefusal(endpoint: string, p: Pick<Placement, 'encoding'>): string | undefined {
  const e = p.encoding;
  if (e.kind !== 'custom-fields') return undefined;
  if (NO_REPEATS.has(endpoint) && e.style === 'entries' && e.multi === 'repeat')
    return 'the spec says the service rejects repeated entries for one multi-select custom field here; use "multi":"join" or "array"';
  if (e.style === 'map' && e.multi === 'repeat') return 'a map keyed by the field GUID holds one value per field; use "multi":"join" or "array"';
  return undefined;
}
