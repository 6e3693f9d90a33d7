import { z } from 'zod';

/**
 * What the relay says of the key it holds for an environment (its /healthz): the fingerprint and, when the
 * admin recorded it, the expiry date and the days left. The service shows no key's validity over its API
 * (spec: Authentication), so the recorded date is all there is to report.
 */
export const heldKey = z.object({
  fingerprint: z.string(),
  expires: z.string().optional(),
  daysLeft: z.number().int().optional(),
  status: z.enum(['ok', 'expiring', 'expired', 'unreadable', 'stale']),
  problem: z.string().optional(),
});
export type HeldKeyHealth = z.infer<typeof heldKey>;

const health = z.object({ status: z.string(), keys: z.record(z.string(), heldKey).optional() });

/** The held key of `env` at the relay, or null when the relay holds none for it (or is older than held keys). */
export async function relayHeldKey(
  relayUrl: string,
  env: string,
  fetch: typeof globalThis.fetch,
): Promise<HeldKeyHealth | null> {
  try {
    const answer = await fetch(`${relayUrl.replace(/\/+$/, '')}/healthz`, {
      headers: { accept: 'application/json' },
    });
    const parsed = health.safeParse(await answer.json());
    return (parsed.success && parsed.data.keys?.[env]) || null;
  } catch {
    return null;
  }
}

/** One line for the report: the key's fingerprint and how long it has left, or what is wrong with it. */
export function heldKeyLine(k: HeldKeyHealth, env: string): string {
  const when = k.expires
    ? `expires ${k.expires} (${k.daysLeft! < 0 ? `${-k.daysLeft!} days ago` : `${k.daysLeft} days left`})`
    : `no expiry date recorded: set environments.${env}.key.expires in the relay configuration to be warned`;
  const status =
    k.status === 'expiring'
      ? ' EXPIRES SOON: make a new key and rotate it (docs/relay.md, "Yearly rotation").'
      : k.status === 'expired'
        ? ' EXPIRED: the service refuses it; make a new key and rotate it.'
        : k.status === 'unreadable' || k.status === 'stale'
          ? ` ${k.problem ?? 'the relay cannot read it'}.`
          : '';
  return `Held key at the relay: ${k.fingerprint || '(none readable)'}, ${when}.${status}`;
}
