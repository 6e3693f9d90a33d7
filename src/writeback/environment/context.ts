import type { z } from 'zod';
import {
  boundOf,
  columnsOf,
  createCatalog,
  indexList,
  listsOf,
  offeredValues,
  type BoundOperation,
  type Catalog,
  type ExtraColumn,
  type Lists,
} from '../../catalog';
import type { Standing } from '../api';
import {
  flowAvailability,
  type EndpointInfo,
  type EnvironmentInfo,
  type FlowAvailability,
  type FlowNeeds,
  type SkippedStep,
} from './availability';

/**
 * The bound catalogue of one environment as write-back reads it: the catalogue placed by the
 * environment's binding (the one copy /api/environments sends), what the relay says about each call there,
 * and per operation where the customer's file wants each value (catalog/placement.ts). Built once per
 * template or post and passed explicitly: the flows, the row reader and the runner read it, nothing keeps
 * it in module state.
 */
export interface BoundEnvironment {
  readonly name: string;
  readonly production: boolean;
  /** Absent: an environment taken at the catalogue's word (an older relay, tests): every call available. */
  readonly endpoints: Readonly<Record<string, EndpointInfo>> | undefined;
  readonly catalog: Catalog;
  /** The operation as this environment's file has it: its method, path, placements, extras and answer. */
  operation(id: string): BoundOperation;
  /** The catalogue fields that land in the operation's request here (a template column exists only for these). */
  placedFields(id: string): ReadonlySet<string>;
  /** The operation's body schema here: the catalogue's, taking the enum values the file adds. */
  bodySchema(id: string): z.ZodType | null;
  /** The values an enum field offers and accepts: the spec's, then those the file adds, spelled as the file spells them. */
  enumValues(id: string, field: string, own: readonly string[]): string[];
}

export function bindEnvironment(info: EnvironmentInfo): BoundEnvironment {
  const catalog = info.catalog ?? createCatalog(info.binding ?? undefined);
  const ops = new Map<string, BoundOperation>();
  const placed = new Map<string, ReadonlySet<string>>();
  const operation = (id: string): BoundOperation => {
    let op = ops.get(id);
    if (!op) {
      const bound = boundOf(catalog.operation(id));
      if (bound.kind !== 'operation') throw new Error(`"${id}" is not bound as an operation`);
      ops.set(id, (op = bound));
    }
    return op;
  };
  return {
    name: info.name,
    production: info.production,
    endpoints: info.endpoints,
    catalog,
    operation,
    placedFields(id) {
      let fields = placed.get(id);
      if (!fields) placed.set(id, (fields = new Set(columnsOf(operation(id)).fields)));
      return fields;
    },
    bodySchema: (id) => catalog.operation(id).body,
    enumValues(id, field, own) {
      // The field's own placement, or the number it is the unit of (a notice period {length, unit}).
      const e = operation(id).placements.find(
        (p) => p.field === field || (p.encoding.kind === 'number-unit' && p.encoding.unitField === field),
      )?.encoding;
      // The file's spellings of the catalogue's own values are the same values (mapped when sent).
      return e ? offeredValues(own, e) : [...own];
    },
  };
}

/**
 * One flow on one environment, once its standing data is loaded: the environment, whether and how the flow
 * can post there (computed once), the extra columns the file asks for, and the standing lists names are
 * looked up in when a value is encoded. Every part of a post reads this one value.
 */
export interface FlowContext {
  readonly environment: BoundEnvironment;
  readonly availability: FlowAvailability;
  /** Properties of the file no catalogue field fills, over the flow's operations, once per key: one template column each. */
  readonly extras: readonly ExtraColumn[];
  /** The standing lists by dataset id, for names the file wants as GUIDs or references. */
  readonly lists: Lists;
  /** The skipped step whose operation is `operationId`, or whose follow-up adds `what`. */
  skippedStep(by: { operationId: string } | { what: string }): SkippedStep | undefined;
}

/** The operations a flow may call: its own and those of its steps. */
export const flowOperations = (flow: FlowNeeds): string[] => [...flow.operations, ...Object.keys(flow.steps ?? {})];

/** The standing lists the environment's file looks names up in for the flow's operations (catalog listsOf). */
export function listsNeeded(flow: FlowNeeds, environment: BoundEnvironment): string[] {
  const out = new Set<string>();
  for (const id of flowOperations(flow))
    if (!environment.endpoints?.[id]?.unavailable) for (const l of listsOf(environment.operation(id))) out.add(l);
  return [...out];
}

/**
 * A dataset's records as a list of names: `Id` (or `GUID`, `Guid`) and `Name`; custom field definitions'
 * answer options too, so a select's answer (its option's GUID) can go by the option's name where the file
 * asks for it (catalog placement `options: 'name'`).
 */
function listOf(records: readonly Readonly<Record<string, unknown>>[]) {
  return indexList(
    records.flatMap((r) => {
      const id = r.Id ?? r.GUID ?? r.Guid;
      const own = typeof id === 'string' && typeof r.Name === 'string' ? [{ id, name: r.Name }] : [];
      const options = Array.isArray(r.AnswerOptions)
        ? (r.AnswerOptions as unknown[]).flatMap((o) =>
            typeof o === 'object' && o !== null && typeof (o as { Id?: unknown }).Id === 'string'
              ? [{ id: (o as { Id: string }).Id, name: String((o as { Name?: unknown }).Name ?? (o as { Value?: unknown }).Value ?? '') }]
              : [],
          )
        : [];
      return [...own, ...options.filter((o) => o.name !== '')];
    }),
  );
}

export function flowContext(
  flow: FlowNeeds,
  environment: BoundEnvironment,
  standing: Standing,
  availability: FlowAvailability = flowAvailability(flow, environment),
): FlowContext {
  const skipped = availability.skipped ?? [];
  const extras = new Map<string, ExtraColumn>();
  for (const id of flowOperations(flow)) {
    if (skipped.some((s) => s.id === id) || environment.endpoints?.[id]?.unavailable) continue;
    for (const x of environment.operation(id).extras) if (!extras.has(x.key)) extras.set(x.key, x);
  }
  const lists: Record<string, ReturnType<typeof listOf>> = {};
  for (const [id, records] of standing) lists[id] = listOf(records);
  return {
    environment,
    availability,
    extras: [...extras.values()],
    lists,
    skippedStep: (by) =>
      skipped.find((s) => ('operationId' in by ? s.id === by.operationId : s.what === by.what)),
  };
}

/** The catalogue's own environment: no binding, every call available (flow unit tests, the bench). */
export const catalogueEnvironment = (name = 'catalogue'): BoundEnvironment =>
  bindEnvironment({ name, production: false });
