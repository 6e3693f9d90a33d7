import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { API_NAMES } from '../catalog';
import { USERS } from './data/standing';

export const ENVIRONMENTS = ['ACC', 'PRD'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const APP_ADMIN = 'ApplicationAdministrator';

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO date');

/** One API key as the keys file gives it (see docs/sandbox.md). */
export const keySpec = z.object({
  name: z.string().min(1),
  identifier: z.string().min(1),
  password: z.string().min(1),
  environment: z.enum(ENVIRONMENTS),
  createdAt: isoDate,
  expiresAt: isoDate,
  allowedIps: z.array(z.string().min(1)),
  apis: z.array(z.string()),
  owner: z.object({
    name: z.string().min(1),
    email: z.string().optional(),
    roles: z.array(z.string()).default([]),
  }),
  /** Requested IP addresses already recorded (soft allowlisting); usually empty in a file. */
  requestedIps: z.array(z.string()).optional(),
  /**
   * Emulates the spec's 401 row "calling IP different from the one used earlier": the first address
   * that calls with the key is remembered (until the sandbox restarts) and any other one is refused.
   */
  pinFirstIp: z.boolean().default(false),
});
export type KeySpec = z.input<typeof keySpec>;

/** A key as the sandbox holds it: allowed and requested addresses change at run time (approval, revocation). */
export interface ApiKey {
  name: string;
  identifier: string;
  password: string;
  environment: Environment;
  createdAt: Date;
  expiresAt: Date;
  allowedIps: Set<string>;
  requestedIps: Map<string, { firstSeen: string; lastSeen: string; count: number }>;
  apis: Set<string>;
  owner: { name: string; email: string; roles: string[] };
  revoked: boolean;
  pinFirstIp: boolean;
  /** With pinFirstIp: the address of the first accepted call. */
  pinnedIp?: string;
}

export class KeysError extends Error {
  override name = 'KeysError';
}

const YEAR_MS = 366 * 86_400_000;

/** Addresses as the sandbox compares them: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is the IPv4 address. */
export function normaliseIp(ip: string): string {
  const lower = ip.trim().toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

/**
 * Checks keys against the spec's rules (expiry at most one year after creation, owner with an e-mail
 * address, known API names, unique identifiers) and refuses the first bad one, naming it.
 */
export function buildKeys(input: unknown): ApiKey[] {
  if (!Array.isArray(input)) throw new KeysError('the keys file must hold a JSON array of keys');
  const seen = new Set<string>();
  return input.map((raw, index) => {
    const label = `key ${index + 1}${raw && typeof raw === 'object' && 'name' in raw ? ` ("${String((raw as { name: unknown }).name)}")` : ''}`;
    const parsed = keySpec.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new KeysError(`${label}: ${issue.path.join('.') || 'key'}: ${issue.message}`);
    }
    const k = parsed.data;
    const createdAt = new Date(k.createdAt);
    const expiresAt = new Date(k.expiresAt);
    if (!k.owner.email || !/^[^@\s]+@[^@\s]+$/.test(k.owner.email))
      throw new KeysError(
        `${label}: its owner "${k.owner.name}" has no e-mail address; a key cannot be created for a user without one (spec, Authentication rule 4)`,
      );
    if (expiresAt.getTime() <= createdAt.getTime())
      throw new KeysError(`${label}: expiresAt must be after createdAt`);
    // "At most one year": calendar year, so a key created on 29 Feb may run to 28 Feb or 1 Mar.
    const limit = new Date(createdAt);
    limit.setUTCFullYear(limit.getUTCFullYear() + 1);
    if (expiresAt.getTime() > Math.min(limit.getTime(), createdAt.getTime() + YEAR_MS))
      throw new KeysError(
        `${label}: expires ${k.expiresAt}, more than one year after its creation on ${k.createdAt} (spec, API key expiry)`,
      );
    const unknown = k.apis.filter((a) => !(API_NAMES as readonly string[]).includes(a));
    if (unknown.length)
      throw new KeysError(
        `${label}: unknown API name ${unknown.map((a) => `"${a}"`).join(', ')}; known: ${API_NAMES.join(', ')}`,
      );
    if (seen.has(k.identifier))
      throw new KeysError(`${label}: identifier "${k.identifier}" is used by another key`);
    seen.add(k.identifier);
    return {
      name: k.name,
      identifier: k.identifier,
      password: k.password,
      environment: k.environment,
      createdAt,
      expiresAt,
      allowedIps: new Set(k.allowedIps.map(normaliseIp)),
      requestedIps: new Map(
        (k.requestedIps ?? []).map((ip) => [normaliseIp(ip), { firstSeen: '', lastSeen: '', count: 0 }]),
      ),
      apis: new Set(k.apis),
      owner: { name: k.owner.name, email: k.owner.email, roles: k.owner.roles },
      revoked: false,
      pinFirstIp: k.pinFirstIp,
    };
  });
}

/** Reads a keys file as JSON; the keys in it are checked when the sandbox starts (buildKeys). */
export function readKeysJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new KeysError(`cannot read the keys file ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new KeysError(`the keys file ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The key made when no keys file is given: an Application Administrator's, loopback only, every API. */
export function demoKey(environment: Environment, now = new Date()): KeySpec {
  const owner = USERS[0]!;
  const expires = new Date(now);
  expires.setUTCFullYear(expires.getUTCFullYear() + 1);
  return {
    name: 'Sandbox demo key',
    identifier: `demo-${randomBytes(6).toString('hex')}`,
    password: randomBytes(18).toString('base64url'),
    environment,
    createdAt: now.toISOString(),
    expiresAt: expires.toISOString(),
    allowedIps: ['127.0.0.1', '::1'],
    apis: [...API_NAMES],
    owner: { name: owner.name, email: owner.email, roles: [APP_ADMIN] },
  };
}
