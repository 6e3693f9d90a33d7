/**
 * What signing in runs, in a chunk of its own (oauth4webapi and the token keeper): a relay without sign-in
 * never makes the pane download it; with sign-in, it is fetched as soon as the relay announces a provider.
 */
export { beginSignIn, discover, type Provider } from './oidc';
export { createTokenKeeper, type TokenKeeper } from './tokens';
