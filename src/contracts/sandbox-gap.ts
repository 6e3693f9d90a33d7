import { z } from 'zod';

/**
 * How the sandbox marks a 404 that is about itself, not about the service it stands in for (a member of the
 * error body, next to `message`), so `grc-sheets check` and the taskpane tell a practice-sandbox gap from a
 * service change:
 * - `no-data`: a dataset of its catalogue it has no data for (one only the customer's own service has, such as a
 *   binding's extra dataset);
 * - `no-route`: no endpoint of its catalogue at that path (it was started without the binding the caller uses,
 *   or with another one).
 * The real service sends no such member.
 */
export const SANDBOX_GAP_MEMBER = 'sandbox';
export const sandboxGap = z.enum(['no-data', 'no-route']);
export type SandboxGap = z.infer<typeof sandboxGap>;
