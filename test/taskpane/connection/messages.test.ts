import { API_ERROR_CODES, ApiError } from '../../../src/client';
import { describeError, messageText } from '../../../src/taskpane/connection/messages';
import { relaySays } from '../../../src/client/relay-reference';

const error = (code: (typeof API_ERROR_CODES)[number], extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ code, message: `service said ${code}.`, sent: 'yes', ...extra });

test('every client error code has its own title', () => {
  const titles = API_ERROR_CODES.map((code) => describeError(error(code), 'ACC').title);
  expect(new Set(titles).size).toBe(API_ERROR_CODES.length);
});

test('an invalid key names the environment and every cause the spec folds into the 401, with the IP fix', () => {
  const m = describeError(error('invalid-credentials', { status: 401 }), 'PRD');
  expect(m.title).toBe('The key is not accepted in PRD');
  const text = messageText(m);
  expect(text).toMatch(/made in PRD/);
  expect(text).toMatch(/acceptance environment do not work in production/);
  expect(text).toMatch(/expired/);
  expect(text).toMatch(/approves it under "Requested IP addresses" and saves/);
  expect(m.steps).toHaveLength(4);
});

test('a missing scheme says to enter the key', () => {
  expect(describeError(error('no-auth-scheme'), 'ACC').detail).toMatch(/No authenticationScheme was specified/);
});

test('forbidden explains which key settings DirectData needs', () => {
  expect(describeError(error('forbidden'), 'ACC').detail).toMatch(/Application Administrator with "Get direct data"/);
});

test('an unreachable relay says nothing was sent', () => {
  expect(describeError(error('unreachable', { sent: 'no' }), 'ACC').detail).toMatch(/Nothing was sent/);
});

test('rate limits and outages say when to try again', () => {
  expect(describeError(error('rate-limited', { retryAfterMs: 2500 }), 'ACC').detail).toMatch(/in 3 s/);
  expect(describeError(error('unavailable'), 'ACC').detail).toMatch(/in a moment/);
});

describe('a relay refusal', () => {
  // As the client makes it (client/error-answer.ts): the relay's sentence, code and status as values.
  const refusal = (code: string, status: number, said: string) =>
    describeError(new ApiError({ code: 'relay', sent: 'no', status, ...relaySays(said, { code, status }) }), 'ACC');

  test('shows the plain sentence; the code and status are kept as the reference behind Details', () => {
    const m = refusal('policy-refused', 403, 'Refused by rule "compliance": risk is not among its datasets. To be given access, ask grc-team@example.com.');
    expect(m).toEqual({
      title: 'Not allowed for you',
      detail: 'The relay says: Refused by rule "compliance": risk is not among its datasets. To be given access, ask grc-team@example.com.',
      reference: 'relay code policy-refused, status 403',
    });
  });

  test('an ended sign-in is titled by its code, not by searching the sentence', () => {
    expect(refusal('signed-out', 401, 'This sign-in was ended (signed out): sign in again.')).toMatchObject({ title: 'Sign in again', detail: 'The relay says: This sign-in was ended (signed out): sign in again.' });
    expect(refusal('body-too-large', 413, 'The body is larger than 1 MiB.').title).toBe('The relay refused the request');
  });

  test('the activity log and what it copies keep the reference, for a support ticket', () => {
    expect(messageText(refusal('policy-refused', 403, 'Refused.'))).toBe('Not allowed for you: The relay says: Refused. (relay code policy-refused, status 403)');
  });

  test('codes the relay maps to the client\'s own (upstream-unreachable) read plain too', () => {
    const m = describeError(new ApiError({ code: 'unreachable', sent: 'no', status: 502, ...relaySays('connect ECONNREFUSED 127.0.0.1:9', { code: 'upstream-unreachable', status: 502 }) }), 'ACC');
    expect(m.detail).toBe('The relay says: connect ECONNREFUSED 127.0.0.1:9 Nothing was sent. Check that the relay runs and that the network allows it, then try again.');
    expect(m.reference).toBe('relay code upstream-unreachable, status 502');
  });
});
