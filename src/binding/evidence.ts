import type { Endpoint } from '../catalog';
import type { FileOperation } from './parse';
import { singular, splitWords } from './words';

/**
 * Whether an operation's WORDS say it is a catalogue endpoint: its operationId, summary, the first sentence
 * of its description, its path segments and tags. Fields that fit are not evidence: a file of an unrelated
 * service has many operations whose bodies happen to fit (an App Service reboot fits "advance a task", which
 * has no body), and a write that does something else in a customer's production is worse than a missing one.
 *
 * Three rules, each about what the words name:
 * - every concept of the endpoint is named (an incident AND a hyperlink for "add a hyperlink to an incident");
 * - a phrase that names a concept names nothing else ("wireless gateway task" is not a task, "incident
 *   report" is an incident): its other nouns must be the endpoint's own words;
 * - no word says it does something else (restores, closes, reboots, fails over, probes; submits, for the
 *   update that must not submit), and its path does not end in another kind of record (`.../Incident/{id}/Moi`
 *   creates a measure of improvement, not a hyperlink).
 */

/** Two-word terms files write apart (third party, web link), joined before looking. */
const JOIN: [string, string, string][] = [
  ['third', 'party', 'thirdparty'],
  ['web', 'link', 'weblink'],
  ['hyper', 'link', 'hyperlink'],
  ['custom', 'field', 'customfield'],
  ['root', 'cause', 'rootcause'],
  ['data', 'management', 'datamanagement'],
  ['data', 'structure', 'datastructure'],
  ['final', 'score', 'finalscore'],
  ['test', 'plan', 'testplan'],
  ['follow', 'up', 'followup'],
  ['to', 'do', 'todo'],
];

/** British and short spellings. */
const SPELLING: Record<string, string> = { organisation: 'organization', org: 'organization', orgunit: 'organization', catalogue: 'catalog' };

/** Words that join nothing: a phrase breaks at them. */
const BREAK = new Set([
  'a', 'an', 'the', 'of', 'on', 'at', 'for', 'to', 'by', 'in', 'into', 'is', 'are', 'its', 'it', 'their', 'his', 'her',
  'and', 'or', 'with', 'from', 'per', 'as', 'via', 'under', 'this', 'that', 'these', 's', 'v', 'api',
  'without', 'not', 'no', 'never', 'does', 'doe', 'doesn', 'don', 't', 'can', 'cannot', 'must', 'may', 'will', 'be',
  'been', 'ha', 'have', 'had', 'wa', 'were', 'which', 'who', 'whose', 'when', 'where', 'if', 'then', 'than',
  'only', 'also', 'any', 'some', 'each', 'both', 'either', 'our', 'your', 'given', 'visible', 'caller',
]);

/** Words that qualify nothing: allowed next to a concept in any phrase. */
const GENERIC = new Set([
  'new', 'all', 'one', 'single', 'existing', 'current', 'my', 'own', 'data', 'detail', 'info', 'information',
  'record', 'item', 'entry', 'object', 'resource', 'id', 'guid', 'uuid', 'list', 'collection', 'by', 'every',
  'standing', 'reference', 'lookup', 'version', 'editable', 'full', 'partial', 'controller', 'handler', 'endpoint',
  'rest', 'operation', 'field', 'direct',
]);

/** Verbs an operation's name starts with: they break a phrase and are judged by ACTIONS, not as nouns. */
const VERBS = new Set([
  'create', 'add', 'new', 'insert', 'register', 'post', 'save', 'make', 'raise', 'record', 'file', 'log', 'open',
  'submit', 'onboard', 'attach', 'update', 'edit', 'modify', 'patch', 'put', 'change', 'set', 'replace',
  'overwrite', 'amend', 'get', 'list', 'read', 'fetch', 'search', 'query', 'find', 'retrieve', 'advance', 'move',
  'assess', 'generate', 'upload', 'link', 'report', 'enter', 'store', 'do',
]);

/**
 * Actions that say an operation does something other than the catalogue's endpoints (each endpoint allows
 * its own below). Found in the operation's name, path and description in their base or third-person form
 * ("closes", "close"; not "closed", an incident's state), unless negated ("does not submit").
 */
const FOREIGN_ACTIONS = new Set([
  'submit', 'restore', 'close', 'reopen', 'reboot', 'restart', 'failover', 'fail', 'probe', 'cancel', 'delete',
  'remove', 'archive', 'unarchive', 'approve', 'reject', 'decline', 'duplicate', 'copy', 'clone', 'import',
  'export', 'sync', 'synchronize', 'validate', 'verify', 'check', 'test', 'run', 'execute', 'start', 'stop',
  'lock', 'unlock', 'enable', 'disable', 'publish', 'unpublish', 'subscribe', 'unsubscribe', 'follow', 'unfollow',
  'like', 'share', 'tag', 'untag', 'download', 'calculate', 'preview', 'flush', 'purge', 'reset', 'rotate',
  'renew', 'revoke', 'accept', 'invite', 'login', 'logout', 'merge', 'split', 'detach', 'transfer', 'scan',
  'send', 'notify', 'email', 'print', 'render', 'convert', 'sign', 'ping', 'describe', 'batch', 'bulk', 'count',
  'resolve', 'escalate', 'assign', 'unassign', 'block', 'unblock', 'suspend', 'resume', 'pause', 'deploy',
  'install', 'uninstall', 'migrate', 'move', 'advance', 'generate', 'upload', 'assess', 'score', 'rate', 'replay',
  'retry', 'trigger', 'snooze', 'mute', 'unmute', 'acknowledge', 'complete', 'finish', 'promote', 'demote',
]);

/** Actions a description names that rule an operation out wherever they stand in it (the look-alikes). */
const DESCRIBED_ACTIONS = new Set(['submit', 'restore', 'close', 'reopen', 'reboot', 'restart', 'failover', 'probe', 'cancel', 'delete', 'archive']);

/** Negations: "does not submit", "no longer submits", "without closing". */
const NEGATION = new Set(['not', 'no', 'never', 'without', 'nor', 'doesn', 'don', 'isn', 'won', 'cannot', 'longer']);

interface Concept {
  /** Any one of these words names it. */
  any: string[];
}

interface Vocabulary {
  /** All of these must be named. */
  concepts: Concept[];
  /** Other nouns allowed in a phrase with a concept ("incident report", "service agreement"). */
  also?: string[];
  /** Foreign actions this endpoint does itself (advance moves a task; a final score is submitted). */
  actions?: string[];
}

const C = (...any: string[]): Concept => ({ any });
const INCIDENT = C('incident');
const TASK = C('task');
const THIRD_PARTY = C('thirdparty', 'vendor', 'supplier');
const CONTRACT = C('contract', 'agreement');
const HYPERLINK = C('hyperlink', 'link', 'weblink', 'url', 'uri', 'href');
const DOCUMENT = C('document', 'attachment');

/** Each catalogue endpoint's concepts where its title alone would say too much or too little. */
const VOCABULARY: Record<string, Vocabulary> = {
  'incident-create': { concepts: [INCIDENT], also: ['report'], actions: ['submit'] },
  'incident-hyperlink': { concepts: [INCIDENT, HYPERLINK], also: ['report'] },
  'incident-status': { concepts: [INCIDENT, C('status', 'state', 'transition')], also: ['report', 'workflow'], actions: ['move', 'advance'] },
  'incident-document': { concepts: [INCIDENT, DOCUMENT], also: ['report'], actions: ['upload'] },
  'thirdparty-create': { concepts: [THIRD_PARTY], also: ['service'], actions: ['submit'] },
  'contract-create': { concepts: [CONTRACT], also: ['service', 'thirdparty', 'vendor', 'supplier'], actions: ['submit'] },
  'task-create': { concepts: [TASK] },
  'task-update': { concepts: [TASK], actions: ['submit'] },
  'task-update-v2': { concepts: [TASK] },
  'task-document': { concepts: [TASK, DOCUMENT], actions: ['upload'] },
  'task-advance': { concepts: [TASK, C('advance', 'next', 'forward', 'progress', 'transition', 'workflow', 'step')], actions: ['advance', 'move', 'submit', 'promote', 'complete'] },
  'task-score-status': { concepts: [TASK, C('score', 'status', 'state', 'assessment', 'verdict', 'rating')], actions: ['score', 'assess', 'rate'] },
  'formresult-create': { concepts: [C('form'), C('result', 'response', 'submission', 'answer')], actions: ['submit'] },
  'samples-generate': { concepts: [C('sample')], also: ['testplan', 'control'], actions: ['generate'] },
  'final-score': { concepts: [C('finalscore')], also: ['testplan', 'control'], actions: ['submit', 'score'] },
  incidents: { concepts: [INCIDENT], also: ['report'] },
  incidenttypes: { concepts: [INCIDENT, C('type', 'category', 'kind')] },
  incidentclassifications: { concepts: [INCIDENT, C('classification', 'severity')] },
  incidenttypecustomfields: { concepts: [INCIDENT, C('type', 'category'), C('customfield', 'field')], also: ['definition'] },
  riskrootcausecategory: { concepts: [C('rootcause'), C('category')], also: ['risk', 'incident'] },
  organizations: { concepts: [C('organization')], also: ['unit', 'tree'] },
  users: { concepts: [C('user', 'people', 'person')], also: ['profile'] },
  businessdimensions: { concepts: [C('business'), C('dimension')] },
  frameworkdimensions: { concepts: [C('framework'), C('dimension')] },
  tasks: { concepts: [TASK] },
  thirdparty: { concepts: [THIRD_PARTY] },
  thirdpartycontract: { concepts: [CONTRACT], also: ['service', 'thirdparty', 'vendor', 'supplier'] },
  thirdpartycustomfields: { concepts: [THIRD_PARTY, C('customfield', 'field')], also: ['definition'] },
  thirdpartycontractcustomfields: { concepts: [CONTRACT, C('customfield', 'field')], also: ['service', 'thirdparty', 'vendor', 'supplier', 'definition'] },
  formresults: { concepts: [C('form'), C('result', 'response', 'submission', 'answer')] },
  samples: { concepts: [C('sample')], also: ['testplan', 'control'] },
};

/** Title words that name no concept ("Risks (old v1)", "... definitions", "... values"). */
const NOT_CONCEPTS = new Set(['old', 'definition', 'value', 'detail']);

/** Another endpoint's vocabulary, from its title: every word a concept ("Audit findings": audit AND finding). */
function fromTitle(e: Endpoint): Vocabulary {
  const all = allWords(e.title.replace(/\([^)]*\)/g, ' ')).filter((w) => !GENERIC.has(w) && !BREAK.has(w));
  // "values", "definitions": not a concept, but its own word ("custom field values" is this dataset's phrase).
  return { concepts: all.filter((w) => !NOT_CONCEPTS.has(w)).map((w) => C(w)), also: all.filter((w) => NOT_CONCEPTS.has(w)) };
}

/** Canonical words, singular, two-word terms joined. */
function canonical(raw: string[]): string[] {
  const ws = raw.map((w) => singular(SPELLING[w] ?? w)).map((w) => SPELLING[w] ?? w);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const j = JOIN.find(([a, b]) => ws[i] === a && ws[i + 1] === b);
    if (j) {
      out.push(j[2]);
      i++;
    } else out.push(ws[i]!);
  }
  return out;
}

/** Words every vocabulary names things with: never read as a verb ("add_incident_link", "incident report"). */
const NOUNS = new Set(Object.values(VOCABULARY).flatMap((v) => [...v.concepts.flatMap((c) => c.any), ...(v.also ?? [])]));

/** Phrases by text: a file repeats its tags, path segments and generated names across operations. */
const phraseMemo = new Map<string, string[][]>();

/**
 * A text's phrases: runs of words between breaks (articles, prepositions, verbs): "Add a hyperlink to an
 * incident report" is [hyperlink], [incident, report]; "CreateWirelessGatewayTask" is [wireless, gateway, task].
 */
function phrases(text: string): string[][] {
  let out = phraseMemo.get(text);
  if (out) return out;
  if (phraseMemo.size > 100_000) phraseMemo.clear();
  out = [];
  phraseMemo.set(text, out);
  // In a name with capitals, `_` and `.` separate parts (Incidents_AddHyperlink, directory.users.list); in a
  // lower-case one `_` separates words (create_vendor_agreement).
  // Punctuation ends a phrase too: "Create a contract (old)".
  const parts = /[A-Z]/.test(text) ? text.split(/[_.:/()[\],;!?]+/) : text.split(/[.:/()[\],;!?]+/);
  for (const part of parts) {
    const ws = allWords(part.replace(/'s\b/g, ' ')).filter((w) => !/^v?\d+$/.test(w));
    let cur: string[] = [];
    const flush = () => {
      if (cur.length) out.push(cur);
      cur = [];
    };
    for (const w of ws) {
      // A verb, or a word in -ing ("without submitting"), names no thing.
      if (BREAK.has(w) || (VERBS.has(w) && !NOUNS.has(w)) || (w.length > 5 && w.endsWith('ing'))) flush();
      else cur.push(w);
    }
    flush();
  }
  return out;
}

/** Every word of a text as canonical words, path parameters left out. */
const allWords = (text: string): string[] =>
  canonical(
    splitWords(text.replace(/\{[^}]*\}/g, ' '))
      // The spec's module paths: incidentdata, taskdata, directdata.
      .flatMap((w) => (w.length > 6 && w.endsWith('data') ? [w.slice(0, -4), 'data'] : [w]))
      .flatMap(segment),
  );

/** The words a glued word may be made of (thirdpartycontract, incidenttypes, scoreandstatus: the catalogue's own style). */
let known: Set<string> | undefined;
const segments = new Map<string, string[]>();

/** A glued word cut into known words when it is made of nothing else; otherwise the word itself. */
function segment(w: string): string[] {
  if (w.length < 6) return [w];
  known ??= new Set([...NOUNS, ...GENERIC, ...VERBS, ...FOREIGN_ACTIONS, 'and', 'third', 'party', 'custom', 'root', 'cause', 'management', 'structure', 'test', 'plan', 'final', 'value']);
  if (known.has(singular(w))) return [w];
  let hit = segments.get(w);
  if (!hit) {
    // best[i]: a cut of w's first i letters into known words of 3 letters or more.
    const best: (string[] | undefined)[] = [[]];
    for (let i = 3; i <= w.length; i++)
      for (let j = i - 3; j >= 0; j--) {
        const piece = w.slice(j, i);
        if (best[j] && known.has(singular(piece))) {
          best[i] = [...best[j]!, piece];
          break;
        }
      }
    hit = best[w.length] ?? [w];
    segments.set(w, hit);
  }
  return hit;
}

/** An API-version path parameter is no record: /api/v{version}/incidents is about incidents. */
const VERSION_PARAM = /\/v?\{[^}]*version[^}]*\}/gi;

/** The first sentence of a description: what it says the operation does. */
const firstSentence = (d: string | undefined): string => (d ?? '').split(/(?<=[.;!?])\s|\n\n/)[0] ?? '';

/** A verb's base form: closes -> close, submits -> submit; "closed" and "closing" stay as they are. */
const base = (w: string): string => (/(ches|shes|sses|xes)$/.test(w) ? w.slice(0, -2) : w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** Actions of a set in a text, negated ones left out ("does not submit the task", "no longer closes"). */
function actionsIn(text: string, of: Set<string>): string[] {
  const raw = splitWords(text);
  const found: string[] = [];
  raw.forEach((w, i) => {
    const b = base(w);
    // "test plan", "follow up": one thing, not an action.
    const term = JOIN.some(([x, y]) => w === x && raw[i + 1] !== undefined && singular(raw[i + 1]!) === y);
    if (of.has(b) && !term && !raw.slice(Math.max(0, i - 3), i).some((p) => NEGATION.has(p))) found.push(b);
  });
  return found;
}

/** What an operation's words are, read once per operation (the importer asks for every endpoint). */
interface Read {
  /** Phrases of its operationId, summary (or its description's first sentence) and path segments: a concept there must not be qualified by another thing. */
  strict: string[][];
  /** Phrases of its tags: they name an area, never the operation alone. */
  tags: string[][];
  /** Actions its name and path name, and those its description names (a narrower set). */
  actions: string[];
  /** Words of the path after its last parameter (what it makes or does there), and of the parent before it. */
  tail: string[];
  tailText: string;
  /** The words of its summary, when it has one: the operation's own sentence about what it does. */
  summary?: Set<string>;
  /** Every word of its phrases: an endpoint none of whose concepts is among them is not named at all. */
  all: Set<string>;
  parent?: { text: string; words: string[] };
  nested: boolean;
}

const reads = new WeakMap<FileOperation, Read>();

function read(op: FileOperation): Read {
  let r = reads.get(op);
  if (r) return r;
  const path = op.path.replace(VERSION_PARAM, '');
  const segments = path.split('/').filter((s) => s && !/^v\d+(\.\d+)?$/i.test(s) && !s.startsWith('{') && !/^api$/i.test(s));
  const name = [op.operationId ?? '', op.summary ?? '', segments.join(' ')];
  const tailText = path.includes('{') ? path.slice(path.lastIndexOf('}') + 1).replace(/^\/|\/$/g, '') : '';
  const before = path.slice(0, path.lastIndexOf('{')).split('/').filter((s) => s && !/^v\d+/i.test(s) && !/^api$/i.test(s));
  // Where it has no summary, its description's first sentence stands in for one, and is read as strictly.
  const sentence = op.summary ? '' : firstSentence(op.description);
  const strict = [op.operationId ?? '', op.summary ?? '', sentence, ...segments].flatMap(phrases);
  const summary = op.summary || sentence ? phrases(op.summary || sentence).flat() : undefined;
  const tags = op.tags.flatMap(phrases);
  r = {
    strict,
    tags,
    all: new Set([...strict, ...tags].flat()),
    ...(summary ? { summary: new Set(summary) } : {}),
    // A read is judged by what it names; a write also by what its words say it does.
    actions: op.method === 'GET' ? [] : [...[...name, sentence].flatMap((t) => actionsIn(t, FOREIGN_ACTIONS)), ...actionsIn(op.description ?? '', DESCRIBED_ACTIONS)],
    tail: tailText.split('/').flatMap(allWords).filter((w) => !BREAK.has(w) && !GENERIC.has(w) && !VERBS.has(w)),
    tailText,
    ...(path.includes('{') && before.length ? { parent: { text: before[before.length - 1]!, words: allWords(before[before.length - 1]!) } } : {}),
    nested: path.includes('{'),
  };
  reads.set(op, r);
  return r;
}

export interface Evidence {
  /** The words that say it is the endpoint ("incident", "hyperlink"), when every concept is named. */
  words: string[];
  /** Why its words rule it out: "its words say it does something else (restore)". */
  against?: string;
}

const vocabularies = new Map<string, Vocabulary & { allowed: Set<string>; vocab: Set<string>; named: Set<string> }>();

function vocabularyOf(e: Endpoint) {
  let v = vocabularies.get(e.id);
  if (!v) {
    const own = VOCABULARY[e.id] ?? fromTitle(e);
    const vocab = new Set([...own.concepts.flatMap((c) => c.any), ...(own.also ?? [])]);
    v = { ...own, vocab, allowed: new Set([...vocab, ...(own.actions ?? [])]), named: new Set(own.concepts.flatMap((c) => c.any)) };
    vocabularies.set(e.id, v);
  }
  return v;
}

/** The evidence in an operation's words that it is endpoint `e`, or what in them rules it out. */
export function evidenceFor(e: Endpoint, op: FileOperation): Evidence {
  const v = vocabularyOf(e);
  const r = read(op);
  const named = new Set<string>();
  const hitsOf = (p: string[]) => p.filter((w) => v.named.has(w));
  const anyNamed = [...v.named].some((w) => r.all.has(w));
  for (const p of anyNamed ? r.strict : []) {
    const hits = hitsOf(p);
    if (!hits.length) continue;
    const other = p.filter((w) => !v.allowed.has(w) && !GENERIC.has(w));
    // "wireless gateway task", "downloadable link": the concept qualified by another thing's noun.
    if (other.length) return { words: [], against: `its words name something else ("${p.join(' ')}")` };
    for (const w of hits) named.add(w);
  }
  const own = named.size > 0;
  for (const p of r.tags) for (const w of hitsOf(p)) named.add(w);
  const acts = r.actions.filter((a) => !v.allowed.has(a));
  if (acts.length) return { words: [], against: `its words say it does something else ("${acts[0]}")` };
  if (r.tail.some((w) => !v.allowed.has(w))) return { words: [], against: `its path ends in another kind of record or action ("${r.tailText}")` };
  // Nested under a parent record (vendors/{id}/agreements): for an endpoint of its own, the parent is its word too.
  if (!e.path.includes('{') && r.parent && r.parent.words.some((w) => !v.vocab.has(w) && !GENERIC.has(w)))
    return { words: [], against: `its path is about another record ("${r.parent.text}")` };
  // Every concept named, and one at least by the operation itself (a tag names an area, not the operation);
  // a summary that names none says the operation is about something else ("Submit a payout" at
  // /submitThirdParty).
  if (!v.concepts.every((c) => c.any.some((w) => named.has(w))) || !own) return { words: [] };
  if (r.summary && ![...v.named].some((w) => r.summary!.has(w))) return { words: [] };
  return { words: [...named] };
}

/** How the report says an endpoint lacks word evidence: "no word says it is Create an incident". */
export const noWordSays = (e: Endpoint): string => `no word says it is ${e.title[0]!.toLowerCase()}${e.title.slice(1)}`;
