import { z } from 'zod';

/**
 * The relay's identity routes as the taskpane reads them (the contract in /work/coord/identity-contract.md:
 * the relay answers, the taskpane parses). One schema per shape.
 */
export const AUTH_CONFIG_PATH = '/api/auth/config';
export const ME_PATH = '/api/me';

/** GET /api/auth/config (no auth): which ways in the relay offers, and where to sign in. */
export const authConfig = z.object({
  personalKeys: z.boolean(),
  signIn: z
    .object({
      /** Discovery starts here: `<issuer>/.well-known/openid-configuration`. */
      issuer: z.string().url(),
      clientId: z.string().min(1),
      scopes: z.array(z.string()),
      /** RFC 8707 resource indicator, for providers that issue the API's access token per resource. */
      resource: z.string().optional(),
    })
    .nullable(),
});
export type AuthConfig = z.infer<typeof authConfig>;
export type SignInConfig = NonNullable<AuthConfig['signIn']>;

/** GET /api/me (Bearer): who the relay takes the token for and what its policy lets them do. */
export const me = z.object({
  subject: z.string(),
  name: z.string(),
  groups: z.array(z.string()),
  may: z.object({
    environments: z.array(z.string()),
    /** Catalogue dataset ids per environment, or '*' for all. */
    datasets: z.record(z.string(), z.union([z.literal('*'), z.array(z.string())])),
    /** Write-back flow ids per environment. */
    flows: z.record(z.string(), z.union([z.literal('*'), z.array(z.string())])),
    /** Whether the person may post to that (production) environment. */
    production: z.record(z.string(), z.boolean()),
  }),
  /** Fingerprint of the key the relay holds per environment (audit rows name it; never the key). */
  keys: z.record(z.string(), z.string()).optional(),
  /** Whom to ask for more rights, as the policy names them. */
  ask: z.string().optional(),
});
export type Me = z.infer<typeof me>;

/** The body of a policy refusal (403 with the relay error header `policy-refused`). */
export const policyRefusal = z.object({
  error: z.object({ code: z.literal('policy-refused'), message: z.string(), rule: z.string(), ask: z.string() }),
});

/** Whether a permission list lets `id` through. */
export function allows(list: '*' | string[] | undefined, id: string): boolean {
  return list === '*' || (list?.includes(id) ?? false);
}
