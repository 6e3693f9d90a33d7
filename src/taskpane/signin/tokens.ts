import { renew, revoke, SignInError, type Provider, type TokenSet } from './oidc';

/**
 * The signed-in person's tokens, in memory only. Renewal is silent and uses the refresh token (no hidden
 * iframe: providers refuse to be framed and Office's webviews block the third-party cookies it needs):
 * ahead of expiry on a timer while the pane is open, and before any call whose token would expire within
 * RENEW_AHEAD_MS. Two calls needing a renewal at once share one. When renewal fails (refresh token expired
 * or revoked, the person removed at the provider), the session ends and the pane asks to sign in again.
 */
export const RENEW_AHEAD_MS = 60_000;

export interface TokenKeeper {
  /**
   * A valid access token, renewed first if it is about to expire (or, with `renew`, because the relay said
   * it expired: clocks differ). Rejects with SignInError when the session ended.
   */
  accessToken(options?: { renew?: boolean }): Promise<string>;
  /** Revokes at the provider where it can, and forgets the tokens. */
  signOut(): Promise<void>;
}

export interface KeeperOptions {
  provider: Provider;
  tokens: TokenSet;
  /** Called when renewal fails for good: the person must sign in again. */
  onEnded(reason: string): void;
  now?: () => number;
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

export function createTokenKeeper(options: KeeperOptions): TokenKeeper {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
  let tokens: TokenSet | null = options.tokens;
  let ended: string | null = null;
  let renewing: Promise<TokenSet> | null = null;
  let timer: unknown = null;

  const end = (reason: string) => {
    tokens = null;
    ended = reason;
    if (timer !== null) timers.clear(timer);
    timer = null;
    options.onEnded(reason);
  };

  const schedule = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    if (!tokens?.refreshToken) return;
    // Renew a little ahead of expiry; a failure here ends the session now rather than at the next call.
    timer = timers.set(() => void renewNow().catch(() => undefined), Math.max(0, tokens.expiresAt - RENEW_AHEAD_MS - now()));
  };

  function renewNow(): Promise<TokenSet> {
    if (renewing) return renewing;
    const current = tokens;
    if (!current?.refreshToken) {
      end('Your sign-in has expired. Sign in again.');
      return Promise.reject(new SignInError(ended!));
    }
    renewing = renew(options.provider, current.refreshToken)
      .then((next) => {
        if (tokens !== current) throw new SignInError(ended ?? 'Signed out.');
        tokens = next;
        schedule();
        return next;
      })
      .catch((e: unknown) => {
        if (tokens === current) end(`${e instanceof Error ? e.message : String(e)} Sign in again.`);
        throw e instanceof SignInError ? e : new SignInError(String(e));
      })
      .finally(() => {
        renewing = null;
      });
    return renewing;
  }

  schedule();
  return {
    async accessToken(o) {
      if (!tokens) throw new SignInError(ended ?? 'Signed out. Sign in again.');
      if (!o?.renew && tokens.expiresAt - now() > RENEW_AHEAD_MS) return tokens.accessToken;
      return (await renewNow()).accessToken;
    },
    async signOut() {
      const current = tokens;
      end('Signed out.');
      if (current) await revoke(options.provider, current);
    },
  };
}
