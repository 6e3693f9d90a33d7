import { isApiError } from '../../client';
import { describeError, NOT_ALLOWED, type UserMessage } from '../connection/messages';

/**
 * A failure titled by what did not happen ("Validation stopped"), the cause below it. The relay's policy
 * refuses a call (often a read of a list the flow checks names against): on this screen that is a refusal
 * to post the flow, and it says so first.
 */
export function failure(e: unknown, environment: string, title: string, flowTitle: string): UserMessage {
  if (isApiError(e)) {
    const told = describeError(e, environment);
    if (told.title !== NOT_ALLOWED) return told;
    return { ...told, detail: `The relay's policy does not let you post ${flowTitle} to ${environment}. Ask the relay's administrators for a rule that gives your group this flow. (It refused a call the flow needs: ${told.detail})` };
  }
  return { title, detail: e instanceof Error ? e.message : String(e) };
}
