import { createCatalog, type Catalog } from '../../catalog';
import type { Environment } from './environments';

const made = new WeakMap<Environment, Catalog>();

/**
 * The catalogue as this environment has it: moved to its binding's paths and property names, with what
 * the binding lacks marked unavailable and its extra datasets added. Made once per environment object.
 */
export function catalogFor(environment: Environment): Catalog {
  let c = made.get(environment);
  if (!c) {
    c = createCatalog(environment.binding ?? undefined);
    made.set(environment, c);
  }
  return c;
}
