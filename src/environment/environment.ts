import { createCatalog, type Binding, type Catalog } from '../catalog';
import { describeEnvironment, type EnvironmentView } from '../contracts/environments';

/**
 * One environment as every door sees it: the relay (from its configuration), the taskpane (from the
 * relay's GET /api/environments) and each command (from the relay, the relay's configuration file, or a
 * base URL with a binding file). What the customer's file says (the binding) is in the catalogue, the
 * view and the binding alike, so no door reaches the write-back, the client or the allowlist with one and
 * not the others: the write-back sends to the binding's paths in the binding's shapes because the view it
 * is given carries the binding the client's catalogue was made from.
 */
export interface Environment {
  name: string;
  /** The customer's file as imported (grc-sheets binding import), or null: the catalogue's own paths. */
  binding: Binding | null;
  /** The catalogue placed by the binding: paths, methods, property names; what the binding lacks marked. */
  catalog: Catalog;
  /**
   * Whether it is production, as the relay or the relay's configuration declares it; null when nothing
   * declares it (a base URL), which a command that only reads takes as false and a post does not.
   */
  production: boolean | null;
  /** What write-back, the taskpane and GET /api/environments read: each call's path and availability, and the binding. */
  view: EnvironmentView;
}

/** What is known of an environment before its catalogue is built. */
export interface EnvironmentFacts {
  name: string;
  binding: Binding | null;
  production: boolean | null;
  /** The relay's outgoing address (its `egressIp`), when the relay says it. */
  egressIp?: string | null;
}

/** What write-back is given: the view (paths, availability, binding) and the catalogue the client was made with. */
export const writebackEnvironment = (environment: Environment) => ({ ...environment.view, catalog: environment.catalog });

/** The one way an environment is built: catalogue and view from the same binding, the production flag as declared. */
export function environmentFrom(facts: EnvironmentFacts): Environment {
  const catalog = createCatalog(facts.binding ?? undefined);
  const view = describeEnvironment(facts.name, facts.production ?? false, catalog, facts.binding);
  return {
    name: facts.name,
    binding: facts.binding,
    catalog,
    production: facts.production,
    view: facts.egressIp ? { ...view, egressIp: facts.egressIp } : view,
  };
}

/**
 * The environment as a post takes it once production is settled (declared, or assumed on the user's word
 * with --yes-production): the same catalogue and binding, the write rules of that production flag.
 */
export function withProduction(environment: Environment, production: boolean): Environment {
  if (production === environment.view.production) return environment;
  const view = describeEnvironment(environment.name, production, environment.catalog, environment.binding);
  return {
    ...environment,
    production,
    view: environment.view.egressIp ? { ...view, egressIp: environment.view.egressIp } : view,
  };
}

/** An environment the relay lists (GET /api/environments): built from the binding the relay sends. */
export const relayListed = (view: EnvironmentView): Environment =>
  environmentFrom({ name: view.name, binding: view.binding, production: view.production, egressIp: view.egressIp ?? null });
