/**
 * `grc-sheets start --sign-in`: sign-in shown on this computer. The demo OpenID provider (src/identity,
 * loopback, two demo users in two groups), the sandboxes' demo keys held by the relay in files only this
 * user can read (deleted on exit), a demo policy, and the relay with personal keys off: nobody types a key.
 * What is printed: the provider's issuer, the demo users' names and passwords and the demo service clients'
 * ids and secrets (they open nothing but the loopback provider), never an API key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoProvider, type DemoProvider } from '../identity/demo-provider';

/** Who may do what in the demo (the relay's policy format, docs/relay.md). */
export const DEMO_POLICY = {
  contact: 'the GRC team (grc-team@example.com)',
  rules: [
    { name: 'reporting', groups: ['reporting'], environments: ['sandbox-acc', 'sandbox-prd'], datasets: ['risk'] },
    { name: 'compliance', groups: ['compliance'], environments: ['sandbox-acc'], datasets: ['incidents'], flows: ['incidents'] },
    // Service clients (client credentials, no person): the app role their tokens carry in `roles`.
    { name: 'scheduled-refresh', groups: ['scheduled-refresh'], environments: ['sandbox-acc', 'sandbox-prd'], datasets: ['risk'] },
    { name: 'scheduled-import', groups: ['scheduled-import'], environments: ['sandbox-acc'], datasets: ['incidents'], flows: ['incidents'] },
  ],
};

/** One line per group for the banner: what the demo policy gives it. */
const GIVES: Record<string, string> = {
  reporting: 'reads risks on sandbox-acc and sandbox-prd',
  compliance: 'reads and posts incidents on sandbox-acc',
  'scheduled-refresh': 'refreshes risks on sandbox-acc and sandbox-prd',
  'scheduled-import': 'reads and posts incidents on sandbox-acc',
};

export interface SignInDemo {
  provider: DemoProvider;
  /** The relay configuration's sign-in part, and each environment's held key (a file reference). */
  relayConfig: {
    identity: { issuer: string; audience: string; clientId: string; scopes: string };
    policy: string;
    personalKeys: false;
  };
  keyFile(environment: string): { file: string };
  /** The sign-in page of the add-in at this origin may receive the code. */
  allowOrigin(origin: string): Promise<void>;
  bannerLines(): string[];
  close(): Promise<void>;
}

export async function startSignInDemo(keys: Record<string, { identifier: string; password: string } | undefined>): Promise<SignInDemo> {
  const dir = mkdtempSync(join(tmpdir(), 'grc-sheets-sign-in-'));
  const files: Record<string, string> = {};
  try {
    for (const [environment, key] of Object.entries(keys)) {
      if (!key) continue;
      // The relay refuses a key file others can read; mode 0600 from the start, never in a shared place.
      files[environment] = join(dir, `${environment}.key`);
      writeFileSync(files[environment], `${key.identifier}:${key.password}\n`, { mode: 0o600 });
    }
    const policy = join(dir, 'policy.json');
    writeFileSync(policy, JSON.stringify(DEMO_POLICY, null, 2), { mode: 0o600 });
    // Redirect URIs are added once the relay listens (its port may be chosen by the system).
    const provider = await startDemoProvider({ redirectUris: [] });
    return {
      provider,
      relayConfig: {
        identity: { issuer: provider.issuer, audience: provider.audience, clientId: provider.clientId, scopes: provider.scopes },
        policy,
        personalKeys: false,
      },
      keyFile(environment) {
        const file = files[environment];
        if (!file) throw new Error(`the sandbox for ${environment} has no demo key`);
        return { file };
      },
      async allowOrigin(origin) {
        const u = new URL(origin);
        // The same page under each loopback name a person may type.
        const names = ['localhost', '127.0.0.1'].includes(u.hostname) ? ['localhost', '127.0.0.1'] : [u.hostname];
        for (const name of names) await provider.addRedirectUri(`${u.protocol}//${name}${u.port ? `:${u.port}` : ''}/sign-in.html`);
      },
      bannerLines() {
        return [
          `  Sign-in provider:      ${provider.issuer}   (demo OpenID provider on this computer)`,
          '',
          '  Demo users (press Sign in on the Connect tab):',
          ...provider.users.map(
            (u) => `    ${u.subject.padEnd(8)} password ${u.password.padEnd(17)} ${u.name}, group ${u.groups.join(', ')}: ${u.groups.map((g) => GIVES[g] ?? 'see the policy').join('; ')}`,
          ),
          '',
          '  Demo service clients (a scheduled grc-sheets refresh/post: GRC_SHEETS_CLIENT_ID and GRC_SHEETS_CLIENT_SECRET):',
          ...provider.serviceClients.map(
            (c) => `    ${c.clientId.padEnd(21)} secret ${c.secret.padEnd(22)} role ${c.roles.join(', ')}: ${c.roles.map((r) => GIVES[r] ?? 'see the policy').join('; ')}`,
          ),
          '',
          '  The relay holds the sandboxes\' API keys (files only you can read, deleted on exit): nobody types one.',
          `  Policy: ${policy}`,
        ];
      },
      async close() {
        await provider.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
