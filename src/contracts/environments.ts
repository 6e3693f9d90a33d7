import { z } from 'zod';
import { binding as bindingSchema, type Binding } from '../catalog/binding';
import { pathSource, writeAvailability, type Catalog } from '../catalog/catalog';
import { HTTP_METHODS } from '../catalog/placement';

/**
 * The contract between the relay and the taskpane, in one place both import: the relay's own routes and
 * the header that marks its refusals. The relay answers with these shapes; the taskpane parses with them.
 */

/** Set by the relay on its own refusals (value: its error code). Only this header makes a body the relay's:
 * the service may answer `{"error": {"code"}}` too, and that answer must stay the service's. */
export const RELAY_ERROR_HEADER = 'x-grc-relay-error';

/** The relay's route that lists its environments (not a service path): summaries (environmentSummaries). */
export const ENVIRONMENTS_PATH = '/api/environments';

/** The relay's route of one environment's whole view (environmentView): fetched when a door connects to it. */
export const environmentPath = (name: string): string => `${ENVIRONMENTS_PATH}/${encodeURIComponent(name)}`;

export const PATH_SOURCES = ['documented', 'bound', 'assumed'] as const;

/** Whether a write may be sent on this environment (catalog's writeAvailability, computed by the relay). */
export const writeView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok') }),
  z.object({ kind: z.literal('confirm'), message: z.string() }),
  z.object({ kind: z.literal('unavailable'), message: z.string() }),
]);

/** One catalogue endpoint as this environment has it. */
export const endpointView = z.object({
  kind: z.enum(['dataset', 'operation']),
  /** The bound method: a customer's file may update with PUT or PATCH. */
  method: z.enum(HTTP_METHODS),
  title: z.string(),
  /** Where the relay forwards it, relative to the environment's API root. */
  path: z.string(),
  pathSource: z.enum(PATH_SOURCES),
  /** Set when the binding lacks it or leaves it ambiguous: the relay never forwards it. */
  unavailable: z.object({ reason: z.enum(['missing', 'ambiguous']), message: z.string() }).optional(),
  /** A documented dataset this environment's API file does not list, kept at the spec's path ("documented, not in your API file"). */
  notInFile: z.boolean().optional(),
  /** Operations only. */
  write: writeView.optional(),
});
export type EndpointView = z.infer<typeof endpointView>;

export const environmentView = z.object({
  name: z.string().min(1),
  production: z.boolean(),
  /**
   * The binding the relay uses for this environment, or null: the catalogue's own (assumed) paths. The one
   * copy of the placements: the taskpane and the commands build the environment from it the one way the
   * relay does (src/environment/environment.ts), so the write-back they drive sends in the binding's shapes.
   */
  binding: bindingSchema.nullable(),
  /** The relay's outgoing address as configured (`egressIp`): what a key owner approves when the service refuses the relay. */
  egressIp: z.string().optional(),
  /** By catalogue id, every endpoint including the binding's extra datasets. */
  endpoints: z.record(z.string(), endpointView),
});
export type EnvironmentView = z.infer<typeof environmentView>;

/**
 * One environment as GET /api/environments lists it: what the taskpane needs at start, and all an
 * anonymous caller of a sign-in relay learns. The binding comes with the view (environmentPath).
 */
export const environmentSummary = environmentView.pick({ name: true, production: true, egressIp: true });
export type EnvironmentSummary = z.infer<typeof environmentSummary>;

/** The answer of GET /api/environments. */
export const environmentSummaries = z.array(environmentSummary);

export const summaryOf = (view: EnvironmentView): EnvironmentSummary => ({
  name: view.name,
  production: view.production,
  ...(view.egressIp ? { egressIp: view.egressIp } : {}),
});

/** A path's last segment: where the relay read a binding's API file is the relay host's business. */
const baseName = (file: string) => file.split(/[\\/]/).pop() ?? '';

/** The view as the relay serves it: the binding's source files by base name only. */
export function servedView(view: EnvironmentView): EnvironmentView {
  const b = view.binding;
  if (!b) return view;
  const { overrides } = b.source;
  const source = {
    ...b.source,
    file: baseName(b.source.file),
    ...(overrides ? { overrides: { ...overrides, file: baseName(overrides.file) } } : {}),
  };
  return { ...view, binding: { ...b, source } };
}

/** What the relay says about one environment, from the catalogue it built from that environment's binding. */
export function describeEnvironment(
  name: string,
  production: boolean,
  catalog: Catalog,
  binding: Binding | null,
): EnvironmentView {
  const endpoints: Record<string, EndpointView> = {};
  for (const e of catalog.endpoints) {
    endpoints[e.id] = {
      kind: e.kind,
      method: e.method,
      title: e.title,
      path: e.path,
      pathSource: pathSource(e),
      ...(e.unavailable ? { unavailable: e.unavailable } : {}),
      ...(e.kind === 'dataset' && e.notInFile ? { notInFile: true } : {}),
      ...(e.kind === 'operation' ? { write: writeAvailability(e, { production }) } : {}),
    };
  }
  return { name, production, binding, endpoints };
}
