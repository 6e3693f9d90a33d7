import type { AuthConfig } from '../../contracts/identity';

/**
 * The relay's identity routes as the taskpane reads them: the shapes are the contract's
 * (src/contracts/identity.ts, one zod schema each); this file adds what the taskpane derives from them.
 */
export { AUTH_CONFIG_PATH, ME_PATH, SIGN_OUT_PATH, authConfig, me, policyRefusal, type AuthConfig, type Me } from '../../contracts/identity';

export type SignInConfig = NonNullable<AuthConfig['signIn']>;

/** Whether a permission list lets `id` through. */
export function allows(list: '*' | string[] | undefined, id: string): boolean {
  return list === '*' || (list?.includes(id) ?? false);
}
