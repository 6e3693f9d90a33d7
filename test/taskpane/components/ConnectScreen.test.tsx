import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { renderToString } from 'react-dom/server';
import { ConnectScreen, type Props } from '../../../src/taskpane/components/ConnectScreen';
import type { EnvironmentChoice } from '../../../src/taskpane/connection/environments';
import type { SignIn, SignInState } from '../../../src/taskpane/signin/useSignIn';

const env = (name: string, production = false): EnvironmentChoice => ({ name, production });
const environments = { ok: true as const, environments: [env('acc'), env('prd', true)] };
const signInConfig = { issuer: 'https://login.example.com/tenant/v2.0', clientId: 'c', scopes: 'openid' };

function render(config: { personalKeys: boolean; signIn: typeof signInConfig | null }, state: SignInState = { kind: 'signed-out' }): string {
  const signIn: SignIn = { state, start: async () => undefined, cancel: () => undefined, signOut: async () => undefined };
  const props: Props = {
    environments,
    auth: { ok: true, config },
    session: null,
    signIn,
    choose: () => undefined,
    connect: async () => null,
    disconnect: () => undefined,
  };
  return renderToString(
    <FluentProvider theme={webLightTheme}>
      <ConnectScreen {...props} />
    </FluentProvider>,
  );
}

test('personal keys only (a relay without sign-in): the key form, and it says the password is never stored', () => {
  const html = render({ personalKeys: true, signIn: null });
  expect(html).toContain('data-testid="identifier"');
  expect(html).not.toContain('data-testid="sign-in"');
  expect(html).toContain('never stored');
  expect(html).not.toMatch(/Remember on this device/);
});

test('sign-in only (personal keys off): the Sign in button naming the provider, no key form', () => {
  const html = render({ personalKeys: false, signIn: signInConfig });
  expect(html).toContain('data-testid="sign-in"');
  expect(html).toContain('login.example.com');
  expect(html).not.toContain('data-testid="identifier"');
});

test('both: sign-in first, then the key form under "or with a personal API key"', () => {
  const html = render({ personalKeys: true, signIn: signInConfig });
  expect(html.indexOf('data-testid="sign-in"')).toBeLessThan(html.indexOf('or with a personal API key'));
  expect(html.indexOf('or with a personal API key')).toBeLessThan(html.indexOf('data-testid="identifier"'));
});

test('signed in: who, their groups, only the environments the policy gives, production marked read-only; no key form', () => {
  const person = {
    me: {
      subject: 'riley',
      name: 'Riley Reporter',
      groups: ['reporting'],
      expiresAt: 0,
      may: { environments: ['acc', 'prd'], datasets: { acc: ['risk'], prd: ['risk'] }, flows: {}, production: { prd: false } },
      keys: { acc: 'key:0123456789ab' },
    },
    fetch: (() => Promise.reject(new Error('not called'))) as unknown as typeof fetch,
    keeper: { accessToken: async () => '', signOut: async () => undefined },
  };
  const html = render({ personalKeys: true, signIn: signInConfig }, { kind: 'signed-in', person });
  expect(html).toContain('Signed in as <!-- -->Riley Reporter');
  expect(html).toContain('groups: reporting');
  expect(html).toContain('prd (PRODUCTION, read only)');
  expect(html).toContain('data-testid="sign-out"');
  expect(html).not.toContain('data-testid="identifier"');
});

test('a failed sign-in says why; waiting offers Cancel', () => {
  expect(render({ personalKeys: false, signIn: signInConfig }, { kind: 'signed-out', message: 'The browser blocked the sign-in window.' })).toContain('The browser blocked the sign-in window.');
  expect(render({ personalKeys: false, signIn: signInConfig }, { kind: 'waiting' })).toContain('data-testid="sign-in-cancel"');
});
