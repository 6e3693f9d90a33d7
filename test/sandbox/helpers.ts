/* eslint-disable @typescript-eslint/no-explicit-any -- answers are arbitrary JSON that the assertions inspect */
import { ACTIVE_USERS, USERS } from '../../src/sandbox/data/standing';
import { startSandbox, type KeySpec, type Sandbox, type SandboxOptions } from '../../src/sandbox';
import { API_NAMES } from '../../src/catalog';

const day = 86_400_000;
const created = new Date(Date.now() - 30 * day);
const inMonths = (m: number) => new Date(created.getTime() + m * 30 * day).toISOString();
const emailOf = (name: string) => USERS.find((u) => u.name === name)?.email ?? 'someone@example.com';

export function key(
  identifier: string,
  over: Partial<KeySpec> & { ownerName?: string; roles?: string[] } = {},
): KeySpec {
  const { ownerName = USERS[0]!.name, roles = ['ApplicationAdministrator'], ...rest } = over;
  return {
    name: `test key ${identifier}`,
    identifier,
    password: `pw-${identifier}`,
    environment: 'ACC',
    createdAt: created.toISOString(),
    expiresAt: inMonths(11),
    allowedIps: ['127.0.0.1', '::1'],
    apis: [...API_NAMES],
    owner: { name: ownerName, email: emailOf(ownerName), roles },
    ...rest,
  };
}

/** Keys for the conformance suite: one per situation the spec's authentication rules name. */
export const KEYS: KeySpec[] = [
  key('admin'),
  key('no-directdata', {
    apis: ['Incidents', 'Tasks', 'Controls', 'ThirdParties', 'Forms', 'FindingReports'],
  }),
  key('not-admin', { ownerName: 'Bram Jansen', roles: [] }),
  key('incidents-only', { ownerName: 'Chloe Martin', roles: [], apis: ['Incidents'] }),
  key('findingreports-only', { ownerName: 'Chloe Martin', roles: [], apis: ['FindingReports'] }),
  key('prd', { environment: 'PRD' }),
  key('expired', {
    createdAt: new Date(Date.now() - 400 * day).toISOString(),
    expiresAt: new Date(Date.now() - 40 * day).toISOString(),
  }),
  key('far-away', { allowedIps: ['10.9.9.9'] }),
  // One Application Administrator key per active user, for the per-operation caller rules.
  ...ACTIVE_USERS.map((name, i) => key(`user-${i}`, { ownerName: name })),
  // Assessors and responsibles who are not administrators (incident document rule).
  ...ACTIVE_USERS.map((name, i) => key(`plain-${i}`, { ownerName: name, roles: [] })),
];

export const userKey = (name: string) => `user-${ACTIVE_USERS.indexOf(name)}`;
export const plainKey = (name: string) => `plain-${ACTIVE_USERS.indexOf(name)}`;

export async function start(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ scale: 50, seed: 7, keys: KEYS, ...options });
}

export const basic = (identifier: string, password = `pw-${identifier}`) =>
  `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One call with plain fetch, as any HTTP client would make it. */
export async function call<T = any>(
  sandbox: Sandbox,
  path: string,
  opts: { as?: string | null; method?: string; body?: unknown; authorization?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const as = opts.as === undefined ? 'admin' : opts.as;
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  else if (as) headers.authorization = basic(as);
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(sandbox.url + path, {
    method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

export const post = <T = any>(sandbox: Sandbox, path: string, body: unknown, as = 'admin') =>
  call<T>(sandbox, path, { as, body, method: 'POST' });
