import type { Catalog } from '../../catalog';
import { relayListed } from '../../environment/environment';
import type { Environment } from './environments';

const made = new WeakMap<Environment, Catalog>();

/**
 * The catalogue as this environment has it, built the one way every door builds it
 * (src/environment/environment.ts) from the binding the relay sends: moved to its binding's paths and
 * property names, with what the binding lacks marked unavailable and its extra datasets added. Made once
 * per environment object.
 */
export function catalogFor(environment: Environment): Catalog {
  let c = made.get(environment);
  if (!c) {
    c = relayListed(environment).catalog;
    made.set(environment, c);
  }
  return c;
}
