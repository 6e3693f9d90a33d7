import { SANDBOX_ABOUT_PATH, sandboxAbout } from '../contracts/sandbox';
import type { Connection } from './connect';

/** 127.0.0.0/8, ::1 and localhost: an address on this machine. */
const isLoopback = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Whether the grc-sheets sandbox answers at a loopback base URL, and which environment it emulates: PRD is
 * production (as `grc-sheets start` declares it), ACC is not. Null when the URL is not on this machine or
 * what answers is not a sandbox (a service reached through a tunnel on loopback has no /_sandbox/about).
 * One GET without credentials, to the sandbox's own route: nothing is read from the service.
 */
export async function sandboxProduction(
  baseUrl: string,
  fetch: typeof globalThis.fetch,
): Promise<boolean | null> {
  const url = new URL(baseUrl);
  if (!isLoopback(url.hostname)) return null;
  try {
    const answer = await fetch(new URL(SANDBOX_ABOUT_PATH, url.origin), {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    if (!answer.ok) return null;
    const about = sandboxAbout.safeParse(await answer.json());
    return about.success ? about.data.environment === 'PRD' : null;
  } catch {
    return null;
  }
}

/**
 * Whether a post's target is production: as the relay or the relay's configuration declares it, as the
 * sandbox on this machine says of itself, or null when nothing says (a post then needs --yes-production).
 */
export async function knownProduction(
  connection: Pick<Connection, 'bound' | 'directUrl'>,
  fetch: typeof globalThis.fetch,
): Promise<boolean | null> {
  if (connection.bound.production !== null) return connection.bound.production;
  return connection.directUrl ? sandboxProduction(connection.directUrl, fetch) : null;
}

/** The refusal of a post whose target nobody declared: the URL, and the two ways forward. */
export function unknownProductionMessage(
  connection: Pick<Connection, 'environment' | 'directUrl'>,
  configFile: string | undefined,
): string {
  const env = connection.environment;
  const url = connection.directUrl ?? '';
  const yes =
    "If it is, or may be, production, give --yes-production (the taskpane's production rules then apply: no post to an assumed path).";
  if (configFile)
    return `${configFile} does not say whether environment ${env} (${url}) is production. Set environments.${env}.production to true or false there (the relay takes a missing value as false; a post does not guess). ${yes} Nothing was sent.`;
  return `nothing says whether ${url} is a production environment: it is called directly, and it is not the grc-sheets sandbox on this machine. ${yes} If it is a test environment, declare it once where the relay's facts about it are: "production": false under environments.${env} in the relay's configuration file, then give --relay-config FILE --env ${env} instead of --base-url. Nothing was sent.`;
}
