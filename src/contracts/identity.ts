import { z } from 'zod';

/**
 * The sign-in contract between the relay and the taskpane (docs/relay.md, "Sign-in and policy"): the
 * relay answers with these shapes, the taskpane parses with them.
 */

/** No authentication: which modes the relay offers and where to sign in. */
export const AUTH_CONFIG_PATH = '/api/auth/config';
/** Bearer: who the relay takes the caller for and what the policy lets them do. */
export const ME_PATH = '/api/me';
/** Bearer, POST: the relay refuses this access token from now until it expires (sign-out). */
export const SIGN_OUT_PATH = '/api/auth/sign-out';

export const authConfig = z.object({
  /** false: the relay refuses `Authorization: Basic` (a typed key); people sign in. */
  personalKeys: z.boolean(),
  signIn: z
    .object({
      /** Discovery at `${issuer}/.well-known/openid-configuration`. */
      issuer: z.string(),
      clientId: z.string(),
      /** Space-separated, as sent in the authorization request. */
      scopes: z.string(),
      /** RFC 8707 `resource` to send in the authorization request, when the provider needs one for the relay's audience. */
      resource: z.string().optional(),
      /**
       * The audiences the relay accepts in access tokens (its identity.audience): what a service client
       * (client credentials, `grc-sheets refresh` on a scheduler) asks its token for when there is no `resource`.
       */
      audience: z.array(z.string()).optional(),
    })
    .nullable(),
});
export type AuthConfig = z.infer<typeof authConfig>;

export const may = z.object({
  environments: z.array(z.string()),
  /** Per environment: the catalogue ids of the datasets this person may read, or '*' (all). */
  datasets: z.record(z.string(), z.union([z.literal('*'), z.array(z.string())])),
  /** Per environment: the write-back flows (flow ids, and single operation ids) this person may post, or '*'. */
  flows: z.record(z.string(), z.union([z.literal('*'), z.array(z.string())])),
  /** Per environment: true where this person may post: a rule with a write flow gives it (on production, a rule with production: true too). */
  production: z.record(z.string(), z.boolean()),
});
export type May = z.infer<typeof may>;

export const me = z.object({
  subject: z.string(),
  name: z.string(),
  groups: z.array(z.string()),
  /** The access token's expiry (seconds since 1970): renew before it. */
  expiresAt: z.number(),
  may,
  /** Per environment: the fingerprint of the key the relay holds for it (`key:` + 12 hex, as keyFingerprint writes). */
  keys: z.record(z.string(), z.string()),
});
export type Me = z.infer<typeof me>;

/** 403 with the relay error header `policy-refused`. */
export const policyRefusal = z.object({
  error: z.object({
    code: z.literal('policy-refused'),
    message: z.string(),
    /** The policy rule (or the missing one) that refused, e.g. `rule "reporting" (datasets)`. */
    rule: z.string(),
    /** Whom to ask: the policy's contact (or the rule's own). */
    ask: z.string(),
  }),
});
export type PolicyRefusal = z.infer<typeof policyRefusal>;
