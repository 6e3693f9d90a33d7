/**
 * A relay with sign-in in front of a fake service, against the real demo provider: a held key with a
 * sentinel value in a 0600 file, a policy file, and helpers to call the relay as a signed-in person.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelay, type Relay, type RelayConfigInput } from '../../src/relay';
import type { DemoProvider } from '../../src/identity/demo-provider';
import { captureLog, startFakeUpstream, type FakeUpstream } from '../relay/helpers';

/** The key the relay holds: none of these forms may appear in any answer, log line or message. */
export const SENTINEL_IDENTIFIER = 'sentinel-identifier-Qz81';
export const SENTINEL_PASSWORD = 'SENTINEL-PASSWORD-7f3a9c-do-not-leak';
export const SENTINEL_FORMS = [
  SENTINEL_IDENTIFIER,
  SENTINEL_PASSWORD,
  Buffer.from(`${SENTINEL_IDENTIFIER}:${SENTINEL_PASSWORD}`).toString('base64'),
  Buffer.from(SENTINEL_PASSWORD).toString('base64'),
];
export const SENTINEL_BASIC = `Basic ${Buffer.from(`${SENTINEL_IDENTIFIER}:${SENTINEL_PASSWORD}`).toString('base64')}`;

export const CONTACT = 'GRC platform team <grc-admins@example.test>';

export const POLICY = {
  contact: CONTACT,
  rules: [
    {
      name: 'reporting-readers',
      groups: ['reporting'],
      environments: ['acc', 'prd'],
      datasets: ['area:Risks'],
    },
    {
      name: 'compliance-writers',
      groups: ['compliance'],
      environments: ['acc', 'prd'],
      datasets: '*',
      flows: ['incidents', 'task-create'],
      production: false,
    },
  ],
};

export interface SignedInRelay {
  relay: Relay;
  upstream: FakeUpstream;
  log: ReturnType<typeof captureLog>;
  dir: string;
  keyFile: string;
  policyFile: string;
  /** Every answer seen through `call`, as text (status line, headers, body): for the sentinel check. */
  seen: string[];
  call(
    path: string,
    token: string | null,
    init?: RequestInit,
  ): Promise<{ status: number; headers: Headers; body: string; json: () => unknown }>;
  close(): Promise<void>;
}

export function writeSecret(file: string, text: string, mode = 0o600): void {
  writeFileSync(file, text, { mode });
  chmodSync(file, mode);
}

export async function startSignedInRelay(
  provider: DemoProvider,
  extra: Partial<RelayConfigInput> = {},
  options: { now?: () => number; processEnv?: NodeJS.ProcessEnv; policy?: unknown } = {},
): Promise<SignedInRelay> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-identity-'));
  const keyFile = join(dir, 'acc.key');
  writeSecret(keyFile, `${SENTINEL_IDENTIFIER}:${SENTINEL_PASSWORD}\n`);
  const policyFile = join(dir, 'policy.json');
  writeFileSync(policyFile, JSON.stringify(options.policy ?? POLICY));
  const upstream = await startFakeUpstream();
  const log = captureLog();
  const config: RelayConfigInput = {
    listen: { host: '127.0.0.1', port: 0 },
    environments: {
      acc: { baseUrl: `${upstream.url}/api`, key: { file: keyFile } },
      prd: { baseUrl: `${upstream.url}/api`, production: true, key: { file: keyFile } },
    },
    allowedOrigins: ['https://addin.example.com'],
    identity: {
      issuer: provider.issuer,
      audience: provider.audience,
      clientId: provider.clientId,
      scopes: provider.scopes,
    },
    policy: policyFile,
    ...extra,
  };
  let relay: Relay;
  try {
    relay = await startRelay(config, { logDestination: log, ...options });
  } catch (e) {
    // A relay refused at start (the tests of start-up refusals) must not leave its upstream listening.
    await upstream.close();
    throw e;
  }
  const seen: string[] = [];
  return {
    relay,
    upstream,
    log,
    dir,
    keyFile,
    policyFile,
    seen,
    async call(path, token, init = {}) {
      const headers = new Headers(init.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      const response = await fetch(`${relay.url}${path}`, { ...init, headers });
      const body = await response.text();
      seen.push(
        `${response.status} ${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${body}`,
      );
      return {
        status: response.status,
        headers: response.headers,
        body,
        json: () => JSON.parse(body) as unknown,
      };
    },
    async close() {
      await relay.close(0);
      await upstream.close();
    },
  };
}

/** Every place a sentinel form shows up in the texts given (empty when none). */
export function leaks(texts: readonly string[]): string[] {
  return texts.flatMap((t) =>
    SENTINEL_FORMS.filter((f) => t.includes(f)).map((f) => `${f} in: ${t.slice(0, 200)}`),
  );
}

/** Resolves once a log line matches (the relay reacts to a file change on its own time). */
export async function logLine(log: { lines: string[] }, pattern: RegExp, timeoutMs = 5000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const line = log.lines.find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > until) throw new Error(`no log line matched ${pattern}:\n${log.lines.join('')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
