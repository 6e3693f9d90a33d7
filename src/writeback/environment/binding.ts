import type { z } from 'zod';
import { catalog, isGuid, widenBody, type WireShape } from '../../catalog';
import type { Standing, WritebackApi } from '../api';
import type { EnvironmentInfo, SkippedStep } from './availability';
import { directory, type Directory } from '../checks/names';
import type { PreparedFlow } from '../flow';
import { cellError, type CellProblem } from '../problem';

/**
 * Where a customer's file wants a GUID for a field the flows fill with a name (the catalogue's incident
 * body names the reporting organization; acme's file wants `reportingOrganization.guid`), the name is
 * resolved to its GUID from the standing data and the GUID is sent. Done once, where every flow's body is
 * checked (RowReader.prepared), so no flow special-cases a binding.
 */

/** Body fields the catalogue fills with names from the directory lists, and the list each name is from. */
const NAME_LISTS: Record<string, keyof Directory> = {
  ReportingOrganization: 'organizations',
  AffectedOrganizations: 'organizations',
  Assessors: 'users',
  Responsible: 'users',
  Informed: 'users',
  ResponsibleUser: 'users',
  Reviewer: 'users',
  BusinessDimensions: 'businessDimensions',
  FrameworkDimensions: 'frameworkDimensions',
};

const WHAT: Record<keyof Directory, string> = {
  organizations: 'organizations',
  users: 'users',
  businessDimensions: 'business dimensions',
  frameworkDimensions: 'framework dimensions',
};

/** What the relay says about an operation's bound body, as much as this reads. */
export interface BoundBody {
  properties?: Readonly<Record<string, string | { path: string }>>;
  formats?: Readonly<Record<string, string>>;
  enums?: Readonly<Record<string, { values: readonly string[] }>>;
}

interface Context {
  endpoints: EnvironmentInfo['endpoints'];
  lists: Directory;
  skipped: readonly SkippedStep[];
  schemas: Map<string, z.ZodType | null>;
  /** The row being prepared: per operation and field, each name and the GUID sent for it. */
  row: Guids;
}

/** Per operation and body field, the GUID to send for each name the row gives. */
type Guids = Record<string, Record<string, Record<string, string>>>;

/** A row's request with the GUIDs to send for its names. */
interface WithGuids {
  request: unknown;
  guids: Guids;
}

/** The body as sent: each name the binding wants as a GUID replaced by its GUID. */
function substitute(body: unknown, guids: Guids[string] | undefined): unknown {
  if (!guids || typeof body !== 'object' || body === null) return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const [field, names] of Object.entries(guids)) {
    const v = out[field];
    const one = (x: unknown) => (typeof x === 'string' ? (names[x] ?? x) : x);
    out[field] = Array.isArray(v) ? v.map(one) : one(v);
  }
  return out;
}

function sending(api: WritebackApi, guids: Guids): WritebackApi {
  if (!Object.keys(guids).length) return api;
  return {
    download: api.download,
    call: (id, o) => api.call(id, o?.body === undefined ? o : { ...o, body: substitute(o.body, guids[id]) }),
  };
}

// Set while a row is prepared (synchronously) by `withBinding`; flows read rows without knowing it.
let current: Context | undefined;

/** Whether the bound body wants a GUID for a catalogue field: format uuid, or a property path ending in guid. */
export function wantsGuid(body: BoundBody | undefined, field: string): boolean {
  if (!body) return false;
  if (body.formats?.[field] === 'uuid') return true;
  const to = body.properties?.[field];
  const path = typeof to === 'string' ? to : to?.path;
  return path !== undefined && /guid$/i.test(path);
}

/**
 * Resolves, in a body that passed the catalogue's schema, every name the binding wants as a GUID to the
 * GUID of that name, noted for the row (`withBinding` substitutes them when the body is sent; the request
 * keeps the names, which is what the service's records show when a row is looked for). A name that cannot
 * be resolved (unknown, several entries, or the list lacking on this environment) is an error on the
 * field's column. Returns false when it added an error.
 */
export function resolveBoundGuids(
  operationId: string,
  body: unknown,
  columnOf: Record<string, string>,
  problems: CellProblem[],
): boolean {
  const ctx = current;
  const bound: BoundBody | undefined = ctx?.endpoints?.[operationId]?.body;
  if (!ctx || !bound || typeof body !== 'object' || body === null) return true;
  const b = body as Record<string, unknown>;
  let ok = true;
  for (const [field, list] of Object.entries(NAME_LISTS)) {
    const value = b[field];
    if (value === undefined || value === null || !wantsGuid(bound, field)) continue;
    const column = columnOf[field] ?? field;
    const index = ctx.lists[list];
    const toGuid = (name: string): string | undefined => {
      if (isGuid(name.trim())) return name.trim();
      if (!index) {
        problems.push(
          cellError(
            column,
            'guid-needed',
            `this environment's API file wants the GUID of ${WHAT[list]} here and lacks the list of ${WHAT[list]}, so "${name}" cannot be looked up; type its GUID`,
          ),
        );
        return undefined;
      }
      const r = index.resolve(name);
      if (!r.ok) problems.push(cellError(column, r.code, r.message));
      return r.ok ? r.id : undefined;
    };
    const names: Record<string, string> = {};
    for (const v of Array.isArray(value) ? value : [value]) {
      const id = typeof v === 'string' ? toGuid(v) : undefined;
      if (id === undefined) ok = false;
      else names[v as string] = id;
    }
    const op = (ctx.row[operationId] ??= {});
    op[field] = { ...op[field], ...names };
  }
  return ok;
}

/**
 * The operation's body schema on this environment: the catalogue's, with the enum values the binding's
 * file adds (catalog/widen.ts, the same widening the client's catalogue does).
 */
export function bodySchema(operationId: string): z.ZodType | null {
  const base = catalog.operation(operationId).body;
  const ctx = current;
  const bound = ctx?.endpoints?.[operationId]?.body;
  if (!ctx || !base || !bound?.enums) return base;
  let schema = ctx.schemas.get(operationId);
  if (schema === undefined) {
    schema = widenBody(base, bound as WireShape);
    ctx.schemas.set(operationId, schema);
  }
  return schema;
}

/**
 * The values a flow offers and accepts for an enum field: the spec's, then those the environment's file
 * adds, spelled as the file spells them (sent as they are). Read while the flow's columns or rows are.
 */
export function boundEnum(operationId: string, field: string, own: readonly string[]): string[] {
  const more = current?.endpoints?.[operationId]?.body?.enums?.[field]?.values ?? [];
  return [...own, ...more.filter((v) => !own.includes(v))];
}

/**
 * A body for an operation whose step this environment skips (availability.ts, steps.ts): the row is not
 * sent, with an error on the step's column. Returns false when it added one.
 */
export function refuseSkippedStep(operationId: string, problems: CellProblem[]): boolean {
  const step = current?.skipped.find((s) => s.id === operationId);
  if (!step) return true;
  problems.push(
    cellError(
      step.column,
      'step-unavailable',
      `${step.message}; choose another ${step.column} or leave the row out`,
    ),
  );
  return false;
}

/**
 * A flow whose rows are read knowing the environment's binding: names it wants as GUIDs are sent as GUIDs
 * (above), and a row that needs a skipped step's operation is refused.
 */
export function withBinding<R>(
  prepared: PreparedFlow<R>,
  environment: EnvironmentInfo,
  standing: Standing,
  skipped: readonly SkippedStep[] = [],
): PreparedFlow<unknown> {
  const endpoints = environment.endpoints;
  if (!endpoints || (!skipped.length && !Object.values(endpoints).some((e) => e.body)))
    return prepared as PreparedFlow<unknown>;
  const ctx: Context = { endpoints, lists: directory(standing), skipped, schemas: new Map(), row: {} };
  const within = <T>(f: () => T): T => {
    const before = current;
    current = ctx;
    try {
      return f();
    } finally {
      current = before;
    }
  };
  const inner = (request: unknown) => (request as WithGuids).request as R;
  return {
    columns: (lookupSheet) => within(() => prepared.columns(lookupSheet)),
    requiredColumns: prepared.requiredColumns,
    prepare: (row) =>
      within(() => {
        ctx.row = {};
        const out = prepared.prepare(row);
        return out.request === undefined
          ? { problems: out.problems }
          : { request: { request: out.request, guids: ctx.row } satisfies WithGuids, problems: out.problems };
      }),
    send(request, api, signal) {
      const { guids } = request as WithGuids;
      return prepared.send(inner(request), sending(api, guids), signal);
    },
    find: (request, records, taken, sent) => prepared.find(inner(request), records, taken, sent),
    ...(prepared.journalNote
      ? { journalNote: (request: unknown) => prepared.journalNote!(inner(request)) }
      : {}),
    ...(prepared.serialKey ? { serialKey: (request: unknown) => prepared.serialKey!(inner(request)) } : {}),
    ...(prepared.rebase
      ? {
          async rebase(
            request: unknown,
            before: readonly unknown[],
            api: WritebackApi,
            signal?: AbortSignal,
          ) {
            const { guids } = request as WithGuids;
            const rebased = await prepared.rebase!(
              inner(request),
              before.map(inner),
              sending(api, guids),
              signal,
            );
            return { request: rebased, guids } satisfies WithGuids;
          },
        }
      : {}),
    ...(prepared.followUp
      ? {
          followUp(request: unknown) {
            const step = prepared.followUp!(inner(request));
            const { guids } = request as WithGuids;
            return (
              step && {
                what: step.what,
                send: (guid, api, signal) => step.send(guid, sending(api, guids), signal),
              }
            );
          },
        }
      : {}),
  };
}
