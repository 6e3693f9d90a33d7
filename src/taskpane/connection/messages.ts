import type { ApiError, ApiErrorCode } from '../../client';

/** What the user sees for a failure and what they can do about it. */
export interface UserMessage {
  title: string;
  detail: string;
  /** What to check or do, in order, when there is more than one thing. */
  steps?: string[];
  /**
   * For whoever looks into it (the relay's code and status): behind "Details" on screen, as Power Query
   * keeps an error's details; in the activity log and what it copies, for a support ticket.
   */
  reference?: string;
}

/** One line of text for the activity log and the clipboard. */
export const messageText = (m: UserMessage): string => [`${m.title}: ${m.detail}`, ...(m.steps ?? []), ...(m.reference ? [`(${m.reference})`] : [])].join(' ');

function seconds(ms: number | undefined): string {
  return ms === undefined ? 'a moment' : `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/**
 * One message per client error code, naming the environment: the spec's error table folds expired keys,
 * other-environment keys and IP changes into one 401, so that message lists all of them with the fix.
 * `after`: words the screen adds after the cause (what a failed load left in the workbook).
 */
export function describeError(error: Pick<ApiError, 'message' | 'retryAfterMs' | 'relay'> & { code: ApiErrorCode }, environment: string, after = ''): UserMessage {
  // A relay refusal's sentence is shown plain; its code and status go in the reference.
  const said = error.relay ? error.relay.sentence : error.message;
  const told = described({ ...error, message: after ? `${said} ${after}` : said }, environment, error.relay?.code);
  return error.relay ? { ...told, reference: `relay code ${error.relay.code}, status ${error.relay.status}` } : told;
}

/** The title of the relay policy's refusal: screens that know what the call was for say it in their words. */
export const NOT_ALLOWED = 'Not allowed for you';

/** The relay's codes for a sign-in it no longer accepts (src/identity/token-check.ts, src/relay). */
const SIGN_IN_AGAIN = new Set(['token-invalid', 'signed-out', 'sign-in-required']);

function described(error: Pick<ApiError, 'message' | 'retryAfterMs'> & { code: ApiErrorCode }, environment: string, relayCode: string | undefined): UserMessage {
  switch (error.code) {
    case 'no-auth-scheme':
      return {
        title: 'No credentials were sent',
        detail: 'The service answered "No authenticationScheme was specified". Enter the API key identifier and password, then test the connection again.',
      };
    case 'invalid-credentials':
      return {
        title: `The key is not accepted in ${environment}`,
        detail: 'The service says the credentials are invalid (401). Check, in this order:',
        steps: [
          'The identifier and password are copied exactly.',
          `The key was made in ${environment}: keys of the acceptance environment do not work in production, and the reverse.`,
          'The key has not expired or been recreated.',
          'The relay\'s IP address is allowed: if it is new, the key owner opens their profile, API keys, approves it under "Requested IP addresses" and saves. Then test again.',
        ],
      };
    case 'forbidden':
      return {
        title: 'Forbidden to execute action',
        detail:
          'The key works but may not do this. DirectData needs a key owned by an Application Administrator with "Get direct data" ' +
          '(General APIs, Data APIs) selected; other reads need their module\'s API selected on the key.',
      };
    case 'relay':
      // The policy and sign-in refusals get their own title.
      if (relayCode === 'policy-refused') return { title: NOT_ALLOWED, detail: error.message };
      if (relayCode && SIGN_IN_AGAIN.has(relayCode)) return { title: 'Sign in again', detail: error.message };
      return { title: 'The relay refused the request', detail: error.message };
    case 'unreachable':
      return {
        title: 'The relay cannot be reached',
        detail: `${error.message} Nothing was sent. Check that the relay runs and that the network allows it, then try again.`,
      };
    case 'outcome-unknown':
      return { title: 'The connection broke before the answer was complete', detail: `${error.message} Try again.` };
    case 'rate-limited':
      return { title: 'Too many requests', detail: `The service asks to slow down. Try again in ${seconds(error.retryAfterMs)}.` };
    case 'unavailable':
      return { title: 'The service is unavailable', detail: `It answered 503. Try again in ${seconds(error.retryAfterMs)}.` };
    case 'not-found':
      return {
        title: 'Not found in this environment',
        detail: `${error.message} If the path is one we assume (not shown in the API manual), the relay's configuration can override it.`,
      };
    case 'bad-answer':
      return { title: 'The answer is not in the expected form', detail: error.message };
    case 'rejected':
      return { title: 'The service rejected the request', detail: error.message };
    case 'invalid-body':
      return { title: 'Not sent: the request is not valid', detail: error.message };
    case 'server-error':
      return { title: 'The service failed', detail: `${error.message} Try again later; if it persists, tell the service desk.` };
    case 'cancelled':
      return { title: 'Cancelled', detail: 'Stopped at your request.' };
  }
}
