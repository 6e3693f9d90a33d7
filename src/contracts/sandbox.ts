import { z } from 'zod';

/**
 * How the sandbox says what it is, to callers on its own machine: `grc-sheets post` asks it before posting
 * directly to a loopback address, since only a sandbox that says so (and says ACC) is known not to be
 * production. The real service has no such route; a service reached through a tunnel on loopback answers
 * it with an error, and stays unknown.
 */
export const SANDBOX_ABOUT_PATH = '/_sandbox/about';

export const sandboxAbout = z.object({
  sandbox: z.literal(true),
  /** The environment the sandbox emulates: PRD is production, as the relay of `grc-sheets start` declares it. */
  environment: z.enum(['ACC', 'PRD']),
});
export type SandboxAbout = z.infer<typeof sandboxAbout>;
