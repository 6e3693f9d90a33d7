import { createClient, type GrcClient } from '../../src/client';
import type { Sandbox } from '../../src/sandbox';

/**
 * A client holding the demo key of a sandbox started without a keys file, as a user starts it: straight to
 * the sandbox or, with `baseUrl`, through a relay. Another `password` makes the key's wrong password.
 */
export function demoClient(sb: Sandbox, over: { baseUrl?: string; password?: string } = {}): GrcClient {
  const { identifier, password } = sb.demoKey!;
  return createClient({
    baseUrl: over.baseUrl ?? sb.url,
    credentials: { identifier, password: over.password ?? password },
  });
}

/** Fault settings merge, so a test that turned one on must turn every one off again for the next test. */
export const clearFaults = (sb: Sandbox) =>
  sb.admin.setFaults({ errorRate: 0, rateLimitRate: 0, dropRate: 0, latencyMs: 0 });

/**
 * The I/O a workbook command (refresh, template, post) is given in a test: what it prints is kept, and its
 * key is the sandbox's demo key from the environment variables a scheduler sets (or `env` instead).
 */
export function cliIo(sb: Sandbox, env: Record<string, string | undefined> = { GRC_SHEETS_KEY_ID: sb.demoKey!.identifier, GRC_SHEETS_KEY_PASSWORD: sb.demoKey!.password }) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { env, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), fetch: globalThis.fetch } };
}
