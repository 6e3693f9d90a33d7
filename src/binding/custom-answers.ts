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
 * rejected. The write-back refuses the same option twice; whether one entry per option is itself a
 * "duplicate" the spec leaves open, so these creates get one entry per option only where the file says so
 * in words (encoding.ts REPEATS) or the admin's override does, and otherwise the options joined.
 */
const NO_REPEATS = new Set(['thirdparty-create', 'contract-create']);

export function fitCustomFields(endpoint: string, placements: Placement[]): void {
  for (const p of placements) {
    const e = p.encoding;
    if (e.kind !== 'custom-fields') continue;
    const list = DEFINITIONS[endpoint];
    if (e.options === 'name' && list && !e.optionsList) e.optionsList = list;
    if (e.style === 'entries' && NO_REPEATS.has(endpoint) && e.multi === undefined)
      e.multi = 'join';
  }
}

/** Why an admin's custom field encoding cannot be used on this operation, if it cannot. */
export function customFieldsRefusal(p: Pick<Placement, 'encoding'>): string | undefined {
  const e = p.encoding;
  if (e.kind !== 'custom-fields') return undefined;
  if (e.style === 'map' && e.multi === 'repeat') return 'a map keyed by the field GUID holds one value per field; use "multi":"join" or "array"';
  return undefined;
}
