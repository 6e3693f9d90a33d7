/**
 * Matching names across a catalogue and a customer's file written by other people: case and separators
 * never matter (PascalCase, camelCase, snake_case, kebab-case), nor plurals, nor a Guid/Id suffix on a
 * reference; British spellings are American ones; and a short table of synonyms that customers' files
 * really use for the catalogue's words. The table is small on purpose: each entry is a word a file was
 * seen (or is very likely) to use for the same thing, never a loose association, because a wrong synonym
 * puts a value in the wrong property silently, and a missing one only costs the admin a line in the
 * overrides file.
 */

/** British -> American spellings (and the short forms files use). */
const SPELLING: Record<string, string> = {
  organisation: 'organization',
  organisations: 'organizations',
  organisational: 'organizational',
  org: 'organization',
  orgs: 'organizations',
  categorisation: 'categorization',
  authorisation: 'authorization',
  prioritisation: 'prioritization',
  behaviour: 'behavior',
  catalogue: 'catalog',
  licence: 'license',
  centre: 'center',
};

/** Synonyms -> the catalogue's word. Why each: the file names the same thing this way. */
const SYNONYM: Record<string, string> = {
  // "title" is what many APIs call a record's display name.
  title: 'name',
  label: 'name',
  headline: 'name',
  subject: 'name',
  fullname: 'name',
  choice: 'option',
  mandatory: 'required',
  removed: 'deleted',
  // People are users.
  people: 'user',
  person: 'user',
  displayname: 'name',
  // A record's identifier, however the file spells it.
  guid: 'id',
  uuid: 'id',
  // A record's free text.
  summary: 'description',
  narrative: 'description',
  details: 'description',
  detail: 'description',
  // A third party in vendor-management and procurement APIs.
  supplier: 'thirdparty',
  vendor: 'thirdparty',
  provider: 'thirdparty',
  // A contract with a third party.
  agreement: 'contract',
  // A hyperlink's address.
  link: 'url',
  href: 'url',
  uri: 'url',
  hyperlink: 'url',
  weblink: 'url',
  // Dates: when an incident was detected / discovered, a contract's start and end.
  discovered: 'detected',
  detection: 'detected',
  discovery: 'detected',
  occurrence: 'occurred',
  effective: 'start',
  effectivefrom: 'start',
  validfrom: 'start',
  effectiveuntil: 'end',
  effectiveto: 'end',
  validuntil: 'end',
  validto: 'end',
  commencement: 'start',
  begin: 'start',
  expiry: 'end',
  expiration: 'end',
  termination: 'end',
  due: 'action',
  // Record states.
  state: 'status',
  // People.
  assignee: 'responsible',
  approver: 'reviewer',
  // Legal Entity Identifier.
  legalentityidentifier: 'lei',
  // Custom field answers.
  customattribute: 'customfield',
  additionalfield: 'customfield',
  extensionfield: 'customfield',
  remark: 'comment',
  note: 'comment',
  // Kinds of incidents.
  kind: 'type',
  category: 'category',
};

/** Words that carry no meaning in a property or operation name. */
const FILLER = new Set(['the', 'a', 'an', 'of', 'on', 'at', 'for', 'to', 'by', 'in', 'is', 'has', 'value', 'values', 'code']);

export function singular(w: string): string {
  if (w === 'ids') return 'id';
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && /(ses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) return w.slice(0, -1);
  return w;
}

/** Raw lower-case words of a name in any casing. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const JOIN: [string, string, string][] = [
  ['third', 'party', 'thirdparty'],
  ['root', 'cause', 'rootcause'],
  ['custom', 'field', 'customfield'],
  ['custom', 'attribute', 'customattribute'],
  ['additional', 'field', 'additionalfield'],
  ['extension', 'field', 'extensionfield'],
  ['legal', 'entity', 'legalentity'],
  ['legalentity', 'identifier', 'legalentityidentifier'],
  ['web', 'link', 'weblink'],
  ['hyper', 'link', 'hyperlink'],
  ['business', 'dimension', 'businessdimension'],
  ['framework', 'dimension', 'frameworkdimension'],
  ['incident', 'type', 'incidenttype'],
  // A notice period is often just "notice" ({notice: {length, unit}}).
  ['notice', 'period', 'notice'],
  ['full', 'name', 'fullname'],
  // A custom field's answer options: options, choices.
  ['answer', 'option', 'option'],
  ['display', 'name', 'displayname'],
  ['effective', 'from', 'effectivefrom'],
  ['effective', 'until', 'effectiveuntil'],
  ['effective', 'to', 'effectiveto'],
  ['valid', 'from', 'validfrom'],
  ['valid', 'until', 'validuntil'],
  ['valid', 'to', 'validto'],
];

/**
 * Canonical words: singular, British spellings American, synonyms the catalogue's word, two-word terms
 * joined (third party -> thirdparty), filler dropped. `synonyms: false` keeps the file's own words (to tell
 * a match by synonym from one by name).
 */
const memo = new Map<string, string[]>();

/** Memoised: the importer asks for the same few hundred names many thousand times. */
export function words(name: string, synonyms = true, join = true): string[] {
  const key = `${synonyms ? 1 : 0}${join ? 1 : 0}${name}`;
  let hit = memo.get(key);
  if (!hit) {
    if (memo.size > 50_000) memo.clear();
    hit = computeWords(name, synonyms, join);
    memo.set(key, hit);
  }
  return hit;
}

function computeWords(name: string, synonyms: boolean, join: boolean): string[] {
  const spell = (w: string) => (synonyms ? (SPELLING[w] ?? w) : w);
  let ws = splitWords(name).map(spell).map(singular).map(spell);
  for (const [a, b, joined] of join ? JOIN : []) {
    const out: string[] = [];
    for (let i = 0; i < ws.length; i++) {
      if (ws[i] === a && ws[i + 1] === b) {
        out.push(joined);
        i++;
      } else out.push(ws[i]!);
    }
    ws = out;
  }
  if (synonyms) ws = ws.map((w) => SYNONYM[w] ?? w);
  return ws.filter((w) => !FILLER.has(w));
}

const REF_SUFFIX = new Set(['id', 'ids', 'guid', 'guids', 'uuid', 'uuids', 'ref', 'key']);

/** Words without a trailing reference suffix (ThirdPartyGuid -> thirdparty; reportingOrgId -> reporting organization). */
export function baseWords(name: string, synonyms = true): string[] {
  const ws = words(name, synonyms);
  return ws.length > 1 && REF_SUFFIX.has(ws[ws.length - 1]!) ? ws.slice(0, -1) : ws;
}

export const isRefSuffixed = (name: string): boolean => {
  const ws = words(name, false);
  return ws.length > 0 && REF_SUFFIX.has(ws[ws.length - 1]!);
};

export type NameMatch = 'exact' | 'name' | 'synonym';

const same = (a: string[], b: string[]) => a.length === b.length && a.every((w, i) => w === b[i]);
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * How a file's name matches a catalogue name, or undefined: 'exact' (same letters), 'name' (same words up to
 * case, separators, plural, a reference suffix, word order), 'synonym' (same after spellings and synonyms).
 * `resource`: the words of what the operation is about (incident): the file may prefix them
 * (incidentTitle for Name).
 */
const matches = new Map<string, NameMatch | null>();
const resourceKeys = new WeakMap<readonly string[], string>();

export function matchName(catalogue: string, file: string, resource: readonly string[] = []): NameMatch | undefined {
  let res = resourceKeys.get(resource);
  if (res === undefined) resourceKeys.set(resource, (res = resource.join(' ')));
  const key = `${catalogue}\u0000${file}\u0000${res}`;
  let hit = matches.get(key);
  if (hit === undefined) {
    if (matches.size > 200_000) matches.clear();
    hit = computeMatch(catalogue, file, resource) ?? null;
    matches.set(key, hit);
  }
  return hit ?? undefined;
}

function computeMatch(catalogue: string, file: string, resource: readonly string[]): NameMatch | undefined {
  if (catalogue === file) return 'exact';
  const letters = (x: string) => x.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (letters(catalogue) === letters(file)) return 'name';
  const c0 = baseWords(catalogue, false);
  const f0 = baseWords(file, false);
  if (same(c0, f0) || sameSet(c0, f0)) return 'name';
  const c = baseWords(catalogue);
  const f = baseWords(file);
  if (same(c, f) || sameSet(c, f)) return 'synonym';
  // A prefix naming the resource itself: incidentTitle, ContractStart, vendor_name.
  const res = new Set(resource.flatMap((r) => words(r)));
  const variants = [f];
  for (let g = f; g.length > 1 && res.has(g[0]!); ) variants.push((g = g.slice(1)));
  // A record's own id named after its kind: OrganisationGuid, incident_id for Id.
  const full = words(file);
  for (let g = full; g.length > 1 && res.has(g[0]!); ) variants.push((g = g.slice(1)));
  // "date" said on one side only: DateDetected and detectedOn, StartDate and ContractStart.
  const undated = (ws: string[]) => ws.filter((w) => w !== 'date');
  // The catalogue's name may carry the resource the file leaves out: IncidentTypes and Types.
  const cs = [c];
  const loose = words(catalogue, true, false).filter((w) => !['id', 'ids', 'guid', 'guids', 'uuid'].includes(w));
  if (loose.length > 1 && res.has(loose[0]!)) cs.push(loose.slice(1));
  for (const v of variants) for (const c of cs) {
    if (sameSet(c, v)) return 'synonym';
    if (undated(c).length && sameSet(undated(c), undated(v)) && (c.includes('date') || v.includes('date'))) return 'synonym';
  }
  return undefined;
}

/** Canonical name as one string (for indexes): "reporting organization". */
export const canonical = (name: string): string => baseWords(name).join(' ');
