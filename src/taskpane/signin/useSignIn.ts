import { useCallback, useEffect, useRef, useState } from 'react';
import { SIGN_OUT_PATH, type Me, type SignInConfig } from '../connection/access';
import { fetchMe } from '../connection/relayIdentity';
import { bearerFetch } from '../../client/bearer-fetch';
import type { Provider, TokenKeeper } from './flow';
import { SignInCancelled } from './signInError';
import { SIGN_IN_PAGE, type SignInAttempt, type SignInWindow } from './windows';

/** A signed-in person: the relay's view of them and the fetch that carries their token. */
export interface Person {
  me: Me;
  fetch: typeof fetch;
  keeper: TokenKeeper;
}

type Flow = typeof import('./flow');
const loadFlow = (): Promise<Flow> => import(/* webpackChunkName: "sign-in-flow" */ './flow');

export type SignInState =
  | { kind: 'signed-out'; message?: string }
  | { kind: 'waiting' }
  | { kind: 'signed-in'; person: Person };

export interface SignIn {
  state: SignInState;
  start(): Promise<void>;
  cancel(): void;
  signOut(): Promise<void>;
}

/**
 * The sign-in as the Connect screen uses it: discovery (once), the window, the code exchange, /api/me.
 * `onChange` is told of every person signed in and out (null), so the shell can drop the session.
 */
export function useSignIn(
  config: SignInConfig | null,
  origin: string,
  fetchFn: typeof fetch,
  window: SignInWindow,
  onChange: (person: Person | null) => void,
): SignIn {
  const [state, setState] = useState<SignInState>({ kind: 'signed-out' });
  const provider = useRef<{ config: SignInConfig; p: Promise<{ flow: Flow; provider: Provider }> } | null>(null);
  const attempt = useRef<SignInAttempt | null>(null);
  const signedOut = useRef(false);
  const keeper = useRef<TokenKeeper | null>(null);

  const ended = useCallback(
    (message: string) => {
      keeper.current = null;
      setState({ kind: 'signed-out', message });
      onChange(null);
    },
    [onChange],
  );

  /** Discovery once per configuration; a failure is tried again at the next press of Sign in. */
  const discovered = useCallback(() => {
    if (!config) return null;
    if (provider.current?.config !== config) {
      const p = loadFlow().then(async (flow) => ({ flow, provider: await flow.discover(config, `${origin}/${SIGN_IN_PAGE}`, fetchFn) }));
      provider.current = { config, p };
      p.catch(() => (provider.current = null));
    }
    return provider.current.p;
  }, [config, origin, fetchFn]);

  // Read ahead, so the window opens right after the click: browsers and Office let a page open a window
  // only shortly after the person asked for it.
  useEffect(() => void discovered()?.catch(() => undefined), [discovered]);

  const start = useCallback(async () => {
    const discovering = discovered();
    if (!discovering) return;
    setState({ kind: 'waiting' });
    let k: TokenKeeper | null = null;
    try {
      const { flow, provider: p } = await discovering;
      const pending = await flow.beginSignIn(p, { forceLogin: signedOut.current });
      attempt.current = window.open(origin, pending.url);
      const callback = await attempt.current.result;
      attempt.current = null;
      const tokens = await pending.finish(callback);
      const made: TokenKeeper = flow.createTokenKeeper({ provider: p, tokens, onEnded: (reason) => keeper.current === made && ended(reason) });
      k = made;
      keeper.current = made;
      const f = bearerFetch(fetchFn, made);
      const me = await fetchMe(origin, f);
      const person = { me, fetch: f, keeper: made };
      setState({ kind: 'signed-in', person });
      onChange(person);
    } catch (e) {
      attempt.current = null;
      // Tokens the relay would not take (a misconfigured audience, say) are given back, not kept renewing.
      if (k) {
        keeper.current = null;
        void k.signOut();
      }
      setState({ kind: 'signed-out', ...(e instanceof SignInCancelled ? {} : { message: e instanceof Error ? e.message : String(e) }) });
    }
  }, [discovered, origin, fetchFn, window, onChange, ended]);

  const cancel = useCallback(() => attempt.current?.cancel(), []);

  const signOut = useCallback(async () => {
    const person = state.kind === 'signed-in' ? state.person : null;
    keeper.current = null;
    signedOut.current = true;
    setState({ kind: 'signed-out', message: 'Signed out.' });
    onChange(null);
    if (!person) return;
    // The relay refuses this access token from now on (it would otherwise live until it expires), then the
    // provider revokes the refresh token. Either may be unreachable: the pane has forgotten the tokens anyway.
    await person.fetch(`${origin}${SIGN_OUT_PATH}`, { method: 'POST' }).catch(() => undefined);
    await person.keeper.signOut();
  }, [onChange, origin, state]);

  // A pane closed while the sign-in window is open stops waiting for it.
  useEffect(() => () => attempt.current?.cancel(), []);

  return { state, start, cancel, signOut };
}
