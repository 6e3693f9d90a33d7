/**
 * The demo provider's people: two users in two groups, so a policy can give each a different view. The
 * passwords are demo values printed by `grc-sheets start --sign-in`; they open nothing but the loopback
 * provider.
 */
export interface DemoUser {
  /** The `sub` claim (and the login name). */
  subject: string;
  /** The `name` claim. */
  name: string;
  password: string;
  /** The `groups` claim. */
  groups: string[];
}

export const DEMO_USERS: readonly DemoUser[] = [
  { subject: 'riley', name: 'Riley Reporter', password: 'reporting-demo', groups: ['reporting'] },
  { subject: 'casey', name: 'Casey Compliance', password: 'compliance-demo', groups: ['compliance'] },
];

/**
 * The demo provider's service clients: a scheduled run authenticates as itself (OAuth client credentials)
 * and its access token carries its app roles in the `roles` claim, as Entra ID gives an app registration's
 * assigned app roles. The secrets are demo values printed by `grc-sheets start --sign-in`.
 */
export interface DemoServiceClient {
  clientId: string;
  secret: string;
  /** The `roles` claim of its access tokens. */
  roles: string[];
}

export const DEMO_SERVICE_CLIENTS: readonly DemoServiceClient[] = [
  { clientId: 'grc-sheets-scheduler', secret: 'scheduler-demo-secret', roles: ['scheduled-refresh'] },
  { clientId: 'grc-sheets-importer', secret: 'importer-demo-secret', roles: ['scheduled-import'] },
];
