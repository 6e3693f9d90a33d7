import { z } from 'zod';
import { catalog as defaultCatalog, type Catalog } from '../catalog';
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

/** The datasets of a catalogue, as the check sees them. */
export function targetsOf(catalog: Catalog): CheckTarget[] {
  return catalog.datasets.map((d) => ({
    id: d.id,
    title: d.title,
    path: d.path,
    pathSource: d.documented ? 'documented' : 'assumed',
    access: d.access,
  }));
}

const relayEnvironments = z.array(
  z.object({ name: z.string(), production: z.boolean(), egressIp: z.string().optional() }),
);

/** Asks the relay what it knows of the environment (GET /api/environments). */
export async function relayEnvironment(
  relayUrl: string,
  name: string,
  fetch: typeof globalThis.fetch,
): Promise<CheckEnvironment> {
  const root = relayUrl.replace(/\/+$/, '');
  let answer: Response;
  try {
    answer = await fetch(`${root}/api/environments`, { headers: { accept: 'application/json' } });
  } catch (e) {
    throw new EnvironmentError(`cannot reach the relay at ${root}: ${(e as Error).message}`);
  }
  if (!answer.ok)
    throw new EnvironmentError(`the relay at ${root} answered ${answer.status} to GET /api/environments`);
  const parsed = relayEnvironments.safeParse(await answer.json().catch(() => null));
  if (!parsed.success)
    throw new EnvironmentError(`${root}/api/environments is not a grc-sheets relay's answer`);
  const view = parsed.data.find((e) => e.name === name);
  if (!view)
    throw new EnvironmentError(
      `the relay has no environment "${name}"; it has ${parsed.data.map((e) => e.name).join(', ') || 'none'}`,
    );
  return {
    baseUrl: `${root}/api/${encodeURIComponent(name)}`,
    catalog: defaultCatalog,
    target: { via: 'relay', url: root, environment: name, production: view.production, binding: null },
    callerIp: view.egressIp ?? null,
  };
}

export function directEnvironment(baseUrl: string): CheckEnvironment {
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    catalog: defaultCatalog,
    target: {
      via: 'direct',
      url: baseUrl.replace(/\/+$/, ''),
      environment: null,
      production: null,
      binding: null,
    },
    callerIp: null,
  };
}
