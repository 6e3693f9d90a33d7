import type { Catalog } from '../catalog';
import type { EnvironmentView } from '../contracts/environments';
import { environmentFrom, type Environment } from '../environment/environment';
import { BindingFileError, loadBinding } from '../binding/load';
import { RelayConfigError, type RelayConfig } from './config';
import { memoisedMatch } from './match-memo';
import { unavailableMatcher } from './unavailable';

/** What the relay knows of its environments: each one's catalogue (from its API mapping), matcher and public view. */
export interface RelayEnvironments {
  views: EnvironmentView[];
  matchers: Map<string, Catalog['match']>;
  catalogs: Catalog[];
  lacking: Map<string, ReturnType<typeof unavailableMatcher>>;
}

/** Each environment has its own catalogue: ACC may already have a newer Swagger file than PRD. */
export function loadEnvironments(config: RelayConfig): RelayEnvironments {
  const out: RelayEnvironments = { views: [], matchers: new Map(), catalogs: [], lacking: new Map() };
  for (const [name, env] of Object.entries(config.environments)) {
    let environment: Environment;
    try {
      const binding = env.binding ? loadBinding(env.binding) : null;
      environment = environmentFrom({ name, binding, production: env.production, egressIp: config.egressIp ?? null });
    } catch (e) {
      if (e instanceof BindingFileError)
        throw new RelayConfigError(`environments.${name}.binding: ${e.message}`);
      throw new RelayConfigError(`environments.${name}.binding (${env.binding}): ${(e as Error).message}`);
    }
    const { catalog } = environment;
    out.catalogs.push(catalog);
    out.matchers.set(name, memoisedMatch(catalog));
    out.lacking.set(name, unavailableMatcher(catalog));
    out.views.push(environment.view);
  }
  return out;
}
