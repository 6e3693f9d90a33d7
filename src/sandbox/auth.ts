import { timingSafeEqual } from 'node:crypto';
import type { Access } from '../catalog';
import type { ErrorName } from './errors';
import { APP_ADMIN, normaliseIp, type ApiKey, type Environment } from './keys';

export type AuthResult = { ok: true; key: ApiKey } | { ok: false; error: ErrorName };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Authenticates a call (spec, Authentication and Errors), in this order:
 * 1. no Basic scheme → 400 "No authenticationScheme was specified.";
 * 2. unknown identifier, wrong password, revoked key, key of the other environment, expired key → 401;
 * 3. caller's socket address not allowed → 401, and the address is recorded as requested (soft allowlisting);
 * 4. with the key's pinFirstIp, an address other than the one of its first accepted call → 401 ("calling IP
 *    different from the one used earlier"), recorded as requested like any refused address.
 * The address is the socket's, never a header: the sandbox sits where the service does, behind no proxy.
 */
export function authenticate(
  header: string | undefined,
  socketIp: string,
  keys: ReadonlyMap<string, ApiKey>,
  environment: Environment,
  now: Date,
): AuthResult {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return { ok: false, error: 'noScheme' };
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, error: 'invalidCredentials' };
  const key = keys.get(decoded.slice(0, colon));
  if (!key || !sameSecret(decoded.slice(colon + 1), key.password))
    return { ok: false, error: 'invalidCredentials' };
  if (key.revoked || key.environment !== environment || now.getTime() >= key.expiresAt.getTime())
    return { ok: false, error: 'invalidCredentials' };
  const ip = normaliseIp(socketIp);
  if (!key.allowedIps.has(ip)) return refuseAddress(key, ip, now);
  if (key.pinFirstIp) {
    key.pinnedIp ??= ip;
    if (key.pinnedIp !== ip) return refuseAddress(key, ip, now);
  }
  return { ok: true, key };
}

/** Records a refused caller address as requested for the key (soft allowlisting) and answers 401. */
function refuseAddress(key: ApiKey, ip: string, now: Date): AuthResult {
  const iso = now.toISOString();
  const seen = key.requestedIps.get(ip);
  if (seen) {
    seen.lastSeen = iso;
    seen.count++;
  } else key.requestedIps.set(ip, { firstSeen: iso, lastSeen: iso, count: 1 });
  return { ok: false, error: 'invalidCredentials' };
}

export const isAppAdmin = (key: ApiKey) => key.owner.roles.includes(APP_ADMIN);

/**
 * Whether the key may call an endpoint at all (spec, Authentication rules 7, 9, 10). Per-operation caller
 * rules (rule 11) need the record and are checked by the operation. Adding a document to an incident is
 * open to assessors and responsibles who are not administrators, so it passes here and its rule decides.
 */
export function mayCall(key: ApiKey, access: Access): boolean {
  switch (access.kind) {
    case 'directdata':
      return isAppAdmin(key) && key.apis.has('GetDirectData');
    case 'module':
      return key.apis.has(access.api);
    case 'write':
      return access.caller === 'incident-document' || isAppAdmin(key);
  }
}
