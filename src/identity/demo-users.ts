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
