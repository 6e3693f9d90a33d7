import { createCatalog, pathSource, type Catalog } from '../catalog';
import type { Binding } from '../catalog/binding';
import { ENVIRONMENTS_PATH, environmentList } from '../contracts/environments';
import type { CheckReport } from './report';
import type { CheckTarget } from './run';

export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
}

/** What the check needs to know of one environment: where to call, with which catalogue. */
export interface CheckEnvironment {
  /** The API root the client calls: the relay's `/api/<env>` or the service's base URL. */
  baseUrl: string;
  catalog: Catalog;
  target: CheckReport['target'];
  callerIp: string | null;
}

/** The datasets of an environment's catalogue, as the check sees them. */
export function targetsOf(catalog: Catalog): CheckTarget[] {
  return catalog.datasets.map((d) => ({
    id: d.id,
    title: d.title,
    path: d.path,
    pathSource: pathSource(d),
    ...(d.notInFile ? { notInFile: true } : {}),
    access: d.access,
    ...(d.unavailable ? { unavailable: d.unavailable } : {}),
  }));
}

const bindingOf = (b: Binding | null) => (b ? { file: b.source.file, sha256: b.source.sha256 } : null);

/** Asks the relay what it knows of the environment (GET /api/environments): production flag, binding, egress address. */
export async function relayEnvironment(
  relayUrl: string,
  name: string,
  fetch: typeof globalThis.fetch,
): Promise<CheckEnvironment> {
  const root = relayUrl.replace(/\/+$/, '');
  let answer: Response;
  try {
    answer = await fetch(`${root}${ENVIRONMENTS_PATH}`, { headers: { accept: 'application/json' } });
  } catch (e) {
    throw new EnvironmentError(`cannot reach the relay at ${root}: ${(e as Error).message}`);
  }
  if (!answer.ok)
    throw new EnvironmentError(`the relay at ${root} answered ${answer.status} to GET ${ENVIRONMENTS_PATH}`);
  const parsed = environmentList.safeParse(await answer.json().catch(() => null));
  if (!parsed.success)
    throw new EnvironmentError(
      `${root}${ENVIRONMENTS_PATH} is not the answer of a grc-sheets relay of this version`,
    );
  const view = parsed.data.find((e) => e.name === name);
  if (!view)
    throw new EnvironmentError(
      `the relay has no environment "${name}"; it has ${parsed.data.map((e) => e.name).join(', ') || 'none'}`,
    );
  return {
    baseUrl: `${root}/api/${encodeURIComponent(name)}`,
    catalog: createCatalog(view.binding ?? undefined),
    target: {
      via: 'relay',
      url: root,
      environment: name,
      production: view.production,
      binding: bindingOf(view.binding),
    },
    callerIp: view.egressIp ?? null,
  };
}

/** Straight to the service, with the binding of that environment when one is given. */
export function directEnvironment(baseUrl: string, binding: Binding | null): CheckEnvironment {
  const url = baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: url,
    catalog: createCatalog(binding ?? undefined),
    target: { via: 'direct', url, environment: null, production: null, binding: bindingOf(binding) },
    callerIp: null,
  };
}
