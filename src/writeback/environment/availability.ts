import type { Binding, Catalog } from '../../catalog';
import type { AnyFlow } from '../flow';

/** What availability reads of a flow: its operations, steps and datasets. */
export type FlowNeeds = Pick<AnyFlow, 'title' | 'operations' | 'steps' | 'datasetNeeds'>;

/**
 * What the relay says about one catalogue call on an environment (the shape of GET /api/environments'
 * endpoints, src/contracts/environments.ts), as much of it as write-back reads. An environment without
 * it (an older relay, tests) is taken at the catalogue's word: every call available.
 */
export interface EndpointInfo {
  title: string;
  path: string;
  pathSource: 'documented' | 'bound' | 'assumed';
  unavailable?: { reason: string; message: string };
  write?: { kind: 'ok' } | { kind: 'confirm'; message: string } | { kind: 'unavailable'; message: string };
}

export interface EnvironmentInfo {
  name: string;
  production: boolean;
  endpoints?: Readonly<Record<string, EndpointInfo>>;
  /** The environment's binding: where the customer's file wants each value (environment/context.ts). None: the catalogue's own shapes. */
  binding?: Binding | null;
  /**
   * The catalogue already built from that binding (src/environment, the client's): used as it is, so one
   * environment has one catalogue. Absent: built here from `binding`.
   */
  catalog?: Catalog;
}

/** A dataset a flow reads that this environment lacks (binding without it) or only guesses (assumed path). */
export interface LackingDataset {
  id: string;
  title: string;
  /** `missing`/`ambiguous`: never called; `assumed`: tried, and taken as empty if the service has no such path. */
  reason: 'missing' | 'ambiguous' | 'assumed';
  /** What the flow cannot check or reconcile without it, in the user's words. */
  consequence: string;
}

export type PostAvailability =
  { kind: 'ok' } | { kind: 'confirm'; message: string } | { kind: 'unavailable'; message: string };

/** A step whose operation this environment lacks: the flow posts without it (fitted-flow.ts). */
export interface SkippedStep {
  id: string;
  what: string;
  column: string;
  drop: boolean;
  /** "the hyperlink is not added: this environment's API file has no such operation". */
  message: string;
}

export interface FlowAvailability {
  post: PostAvailability;
  lacking: LackingDataset[];
  /** Absent: none (an availability made before steps could be skipped). */
  skipped?: SkippedStep[];
}

const ADMIN =
  "Your administrator imports the service's Swagger file and gives the relay the binding (docs/binding.md).";

/**
 * Whether a flow can post on this environment, and which of the datasets it reads are lacking. Said before
 * a template is made, so nobody fills one for a flow that cannot post, and a lacking dataset never stops a
 * post halfway.
 */
export function flowAvailability(flow: FlowNeeds, environment: EnvironmentInfo): FlowAvailability {
  const endpoints = environment.endpoints;
  if (!endpoints) return { post: { kind: 'ok' }, lacking: [], skipped: [] };
  const unavailable: string[] = [];
  const confirm: string[] = [];
  for (const id of flow.operations) {
    const e = endpoints[id];
    const write = e?.write;
    // The catalogue's messages name the operation and what the admin does; they are used as they are.
    if (!e) unavailable.push(`"${id}" is not known to the relay.`);
    else if (e.unavailable) unavailable.push(e.unavailable.message);
    else if (write?.kind === 'unavailable') unavailable.push(write.message);
    else if (write?.kind === 'confirm' || e.pathSource === 'assumed') confirm.push(`${e.title} at ${e.path}`);
  }
  // A step's operation the environment has is confirmed like the main one when its path is assumed.
  for (const id of Object.keys(flow.steps ?? {})) {
    const e = endpoints[id];
    if (
      e &&
      !e.unavailable &&
      e.write?.kind !== 'unavailable' &&
      (e.write?.kind === 'confirm' || e.pathSource === 'assumed')
    )
      confirm.push(`${e.title} at ${e.path}`);
  }
  const lacking: LackingDataset[] = [];
  for (const [id, consequence] of Object.entries(flow.datasetNeeds)) {
    const e = endpoints[id];
    const reason = !e
      ? 'missing'
      : e.unavailable
        ? e.unavailable.reason === 'ambiguous'
          ? 'ambiguous'
          : 'missing'
        : e.pathSource === 'assumed'
          ? 'assumed'
          : null;
    if (reason) lacking.push({ id, title: e?.title ?? id, reason, consequence });
  }
  const skipped: SkippedStep[] = [];
  for (const [id, step] of Object.entries(flow.steps ?? {})) {
    const e = endpoints[id];
    // A step on a path that is only assumed is still tried (the main operation's confirmation covers it).
    if (e && !e.unavailable && e.write?.kind !== 'unavailable') continue;
    const why =
      !e || e.unavailable?.reason !== 'ambiguous'
        ? "this environment's API file has no such operation"
        : "this environment's API file has several candidates for it and none was picked";
    skipped.push({
      id,
      what: step.what,
      column: step.column,
      drop: step.drop === true,
      message: `the ${step.what} is not ${step.drop ? 'added' : 'done'}: ${why}`,
    });
  }
  // A flow made only of steps (task updates: each action its own operation) can post while one of them can.
  const steps = Object.keys(flow.steps ?? {});
  if (!flow.operations.length && steps.length && skipped.length === steps.length)
    for (const id of steps) {
      const e = endpoints[id];
      unavailable.push(!e ? `"${id}" is not known to the relay.` : (e.unavailable?.message ?? (e.write?.kind === 'unavailable' ? e.write.message : id)));
    }
  const admin = (messages: string[]) =>
    messages.some((m) => m.includes('docs/binding.md')) ? '' : ` ${ADMIN}`;
  const post: PostAvailability = unavailable.length
    ? {
        kind: 'unavailable',
        message: `${flow.title} cannot be posted to ${environment.name}. ${unavailable.map((m) => m.replace(/\.?$/, '.')).join(' ')}${admin(unavailable)}`,
      }
    : confirm.length
      ? {
          kind: 'confirm',
          message:
            `Path assumed: ${confirm.join('; ')}. The service's documentation does not show ${confirm.length === 1 ? 'this path' : 'these paths'} ` +
            `and no binding gives ${confirm.length === 1 ? 'it' : 'them'}; grc-sheets guesses. If the guess is wrong the service answers 404 and nothing is created. ${ADMIN}`,
        }
      : { kind: 'ok' };
  return { post, lacking, skipped };
}

/** One sentence per skipped step, for the flow's notice. */
export function skippedText(s: SkippedStep): string {
  const m = s.message;
  return `${m[0]!.toUpperCase()}${m.slice(1)}. ${s.drop ? `New templates have no ${s.column} column; rows that fill it are posted without it.` : `Rows that need it (${s.column}) are not sent.`} ${ADMIN}`;
}

/** One sentence per lacking dataset, for the flow's notice. */
export function lackingText(l: LackingDataset): string {
  const why =
    l.reason === 'assumed'
      ? `the spec does not list it and no binding gives its path, so its path is a guess`
      : l.reason === 'ambiguous'
        ? 'the binding has several candidates for it and none was picked'
        : "this environment's binding does not have it";
  return `${l.title}: ${why}. ${l.consequence}`;
}
