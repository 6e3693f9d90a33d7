/**
 * `grc-sheets start --sign-in` as a user runs it: it prints the demo provider's issuer and the demo users
 * (never an API key), the relay offers sign-in only and holds the keys, the provider accepts the add-in's
 * sign-in page, and Ctrl-C removes the key files it wrote.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startCli, stopCli } from '../support/start-cli';
import { requireDist } from './harness';

beforeAll(() => requireDist());

test('it prints the issuer and the demo users, never a key; the relay takes sign-in only; Ctrl-C deletes the key files', async () => {
  const certs = mkdtempSync(join(tmpdir(), 'grc-no-certs-'));
  const { child, banner } = await startCli(['--sign-in', '--certs', certs]);
  let policy: string | undefined;
  try {
    expect(banner).toContain('grc-sheets is running, with sign-in.');
    const issuer = /Sign-in provider: +(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    expect(issuer).toBeDefined();
    expect(banner).toMatch(/riley +password reporting-demo +Riley Reporter, group reporting: reads risks/);
    expect(banner).toMatch(/casey +password compliance-demo +Casey Compliance, group compliance: reads and posts incidents on sandbox-acc/);
    expect(banner).not.toMatch(/identifier|Demo API keys|demo-[0-9a-f]/);
    policy = /Policy: (\S+)/.exec(banner)?.[1];
    expect(existsSync(join(dirname(policy!), 'sandbox-acc.key'))).toBe(true);

    const origin = new URL(/Preview in a browser: +(\S+)/.exec(banner)![1]!).origin;
    const config = (await (await fetch(`${origin}/api/auth/config`)).json()) as { personalKeys: boolean; signIn: { issuer: string; clientId: string } };
    expect(config).toMatchObject({ personalKeys: false, signIn: { issuer, clientId: 'grc-sheets-taskpane' } });
    // The provider answers the add-in's page (its sign-in page is a registered redirect URI: CORS follows).
    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`, { headers: { origin } });
    expect(discovery.headers.get('access-control-allow-origin')).toBe(origin);
    // A typed key is refused: the relay holds the keys.
    const typed = await fetch(`${origin}/api/sandbox-acc/directdata/v3/risk`, { headers: { authorization: `Basic ${btoa('someone:something')}` } });
    expect(typed.status).toBe(403);
    expect(typed.headers.get('x-grc-relay-error')).toBe('personal-keys-off');
    expect((await fetch(`${origin}/sign-in.html`)).status).toBe(200);
  } finally {
    expect(await stopCli(child)).toBe(0);
    rmSync(certs, { recursive: true, force: true });
  }
  expect(existsSync(dirname(policy!))).toBe(false);
}, 60_000);
