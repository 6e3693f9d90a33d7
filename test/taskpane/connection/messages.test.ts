import { API_ERROR_CODES, ApiError } from '../../../src/client';
import { describeError, messageText } from '../../../src/taskpane/connection/messages';

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
