import type { Access } from '../catalog';

/**
 * What the admin does about each answer, in the spec's words (Authentication rules 7 to 10, Errors):
 * the same texts the table and `--json` show.
 */

const DOCS = 'docs/binding.md';

/** The key setting a 403 on this dataset points at. */
export function forbiddenFix(access: Access): string {
  switch (access.kind) {
    case 'directdata':
      return (
        'The key needs the setting Get direct data (Selected APIs → General APIs → Data APIs), and its owner must be ' +
        "an Application Administrator (spec, Authentication rule 9). Edit the key on its owner's profile (name menu → " +
        'View profile → API keys), tick Get direct data and save; a key owned by someone else cannot be changed: ' +
        'that person, if an Application Administrator, makes a new key.'
      );
    case 'module':
      return (
        `The key needs the ${access.api} API under Selected APIs (spec, Authentication rule 10: the selected APIs ` +
        "cover the reads of their module). Edit the key on its owner's profile (name menu → View profile → API keys), " +
        `select ${access.api} and save.`
      );
    case 'write':
      return 'Writes need a key owned by an Application Administrator (spec, Authentication rule 10).';
  }
}

/**
 * A 404 from the service itself: which of three things it is, by where the path comes from. A bound path the
 * service no longer answers is a service change; a documented path the API file does not list is a dataset this
 * service does not offer (nothing to re-import); a documented one the file lists means a wrong base URL.
 */
export function notFoundFix(
  t: { id: string; title: string; path: string; pathSource: 'documented' | 'bound' | 'assumed'; notInFile?: boolean },
  via: 'relay' | 'direct',
): string {
  const { pathSource, path } = t;
  const base =
    via === 'relay'
      ? "Check the environment's baseUrl in the relay configuration ends in the API root (e.g. https://grc.example.com/api)."
      : 'Check the --base-url ends in the API root (e.g. https://grc.example.com/api).';
  if (t.notInFile)
    return (
      `${path} is the spec's own path for ${t.title}; your API file does not list it and the service has nothing there: ` +
      `this service does not offer it (re-importing the same file changes nothing). Ask the service desk whether it has ` +
      `moved; if your service does not have it, add "none ${t.id}" to the binding's overrides file and import again, ` +
      `so users are not offered it (${DOCS}). ${base}`
    );
  if (pathSource === 'bound')
    return (
      `The binding puts it at ${path}, and the service has nothing there: the service changed since the Swagger file ` +
      `was imported. Ask the service desk for the current Swagger file, import it again and give the relay the new binding (${DOCS}). ${base}`
    );
  if (pathSource === 'documented')
    return (
      `${path} is the spec's own path. ${base} If it does, this service has moved the dataset: import its Swagger ` +
      `file and bind the environment (${DOCS}).`
    );
  return `${path} is assumed, not documented: import the service's Swagger file and bind the environment (${DOCS}).`;
}

/** The practice sandbox's own 404 (contracts/sandbox.ts): nothing about the service or its API file. */
export function sandboxGapFix(gap: 'no-data' | 'no-route', id: string): string {
  if (gap === 'no-data')
    return (
      'Nothing to fix: this is a gap of the practice sandbox, not a change of the service. The sandbox has data for ' +
      `the catalogue's datasets only; "${id}" comes from your API file. Run the check against your service's ` +
      'environment (ACC) to check it.'
    );
  return (
    'The practice sandbox was started without the binding this check uses, or with another one: start it with the ' +
    `same binding (grc-sheets sandbox --binding FILE, or npm start -- --binding-acc FILE) and check again (${DOCS}). ` +
    'This says nothing about your service.'
  );
}

/** The 401: what the service reports and where the caller's address is approved. */
export function refusedKeyFix(callerIp: string | null, via: 'relay' | 'direct'): string {
  const who = via === 'relay' ? "the relay's address" : "this machine's address";
  const address = callerIp
    ? `${who} ${callerIp}`
    : via === 'relay'
      ? `${who} (not known here: set egressIp in the relay configuration, or run curl -s https://ifconfig.me on the relay host)`
      : `${who} as the service sees it (e.g. curl -s https://ifconfig.me)`;
  return (
    'The service refused the credentials (401). If the identifier and password are right and the key belongs to this ' +
    `environment (ACC and PRD keys differ) and has not expired or been revoked, the calling address is not allowed: the ` +
    `service lists ${address} under Requested IP addresses on the key owner's profile (name menu → View profile → ` +
    'API keys). Approve it there and save, then run the check again.'
  );
}
