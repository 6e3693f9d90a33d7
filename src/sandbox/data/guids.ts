import { hash32 } from './random';

/**
 * GUIDs of generated records encode their kind and index (`hhhhhhhh-kkkk-4sss-8sss-iiiiiiiiiiii`), so a
 * GUID received in a request leads straight back to its record without an index in memory, and two
 * records can never share one. The first group is a hash, so the GUIDs do not look sequential.
 */
export const KINDS = {
  risk: 1,
  control: 2,
  incident: 3,
  moi: 4,
  thirdParty: 5,
  contract: 6,
  audit: 7,
  finding: 8,
  task: 9,
  testPlan: 10,
  kri: 11,
  kriValue: 12,
  businessAssessment: 13,
  dataManagement: 14,
  dataStructure: 15,
  sample: 16,
  formResult: 17,
  customFieldValue: 18,
  standing: 19,
  document: 20,
  hyperlink: 21,
  organization: 22,
  user: 23,
  dimension: 24,
} as const;
export type Kind = keyof typeof KINDS;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export function guidOf(seed: number, kind: Kind, index: number): string {
  const k = KINDS[kind];
  const s = hash32(seed, 0x5eed);
  return `${hex(hash32(seed, k, index), 8)}-${hex(k, 4)}-4${hex(s & 0xfff, 3)}-8${hex((s >>> 12) & 0xfff, 3)}-${hex(index, 12)}`;
}

/** The index of a generated record of `kind` with this GUID, or null when the GUID is not one. */
export function indexOf(seed: number, kind: Kind, guid: string): number | null {
  const parts = guid.toLowerCase().split('-');
  if (parts.length !== 5 || parts[1] !== hex(KINDS[kind], 4)) return null;
  const index = parseInt(parts[4]!, 16);
  return Number.isSafeInteger(index) && guidOf(seed, kind, index) === guid.toLowerCase() ? index : null;
}
