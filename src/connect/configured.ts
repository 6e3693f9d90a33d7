import { readFileSync } from 'node:fs';
import { BindingFileError, loadBinding } from '../binding/load';
import type { Binding } from '../catalog';
import { applyEnv, parseRelayConfig, RelayConfigError } from '../relay/config';

type Env = Record<string, string | undefined>;

/**
 * One environment as the admin declares it in the relay's configuration file (environments.<name>: baseUrl,
 * production, binding), for a command that calls the service directly from the relay's host: where the
 * environment is, which binding it has and whether it is production come from the one file the relay runs
 * with, not from options a scheduler repeats. `target.production` is null when the file does not set it:
 * the relay takes that as false, a post does not guess. open.ts builds the environment from these facts.
 */
export function configuredEnvironment(
  file: string,
  name: string,
  env: Env,
): { url: string; binding: Binding | null; production: boolean | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RelayConfigError(`cannot read the relay configuration ${file}: ${(e as Error).message}`);
  }
  // The same GRC_RELAY_* variables the relay applies, so the command sees what the relay would.
  const applied = applyEnv(raw, env) as { environments?: Record<string, { production?: unknown }> };
  const config = parseRelayConfig(applied, file);
  const environment = config.environments[name];
  if (!environment)
    throw new RelayConfigError(
      `${file} has no environment "${name}"; it has ${Object.keys(config.environments).join(', ')}`,
    );
  if (environment.ca && !env.NODE_EXTRA_CA_CERTS)
    throw new RelayConfigError(
      `environments.${name}.ca in ${file} names a private certificate authority: run the command with NODE_EXTRA_CA_CERTS=${environment.ca} so it trusts it too`,
    );
  let binding = null;
  try {
    binding = environment.binding ? loadBinding(environment.binding) : null;
  } catch (e) {
    if (e instanceof BindingFileError)
      throw new RelayConfigError(`environments.${name}.binding in ${file}: ${e.message}`);
    throw e;
  }
  const declared = applied.environments?.[name]?.production;
  return {
    url: environment.baseUrl.replace(/\/+$/, ''),
    binding,
    production: typeof declared === 'boolean' ? declared : null,
  };
}
