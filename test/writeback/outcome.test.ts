import { ApiError, type ApiErrorCode, type Sent } from '../../src/client';
import { catalog } from '../../src/catalog';
import { errorFromAnswer } from '../../src/client/error-answer';
import { verdictOf } from '../../src/writeback/post/outcome';

const err = (code: ApiErrorCode, sent: Sent, extra: { retryAfterMs?: number; status?: number } = {}) =>
  new ApiError({ code, sent, message: code, ...extra });

describe('what a failed send means for the row', () => {
  it.each([
    ['connection refused before sending', err('unreachable', 'no'), 'retry'],
    ['503 with Retry-After', err('unavailable', 'yes', { status: 503, retryAfterMs: 1000 }), 'retry'],
    ['429 with Retry-After', err('rate-limited', 'yes', { status: 429, retryAfterMs: 1000 }), 'retry'],
    ['503 without Retry-After', err('unavailable', 'yes', { status: 503 }), 'not sent'],
    ['the relay could not reach the service', err('relay', 'no', { status: 502 }), 'retry'],
    ['the relay timed out waiting for the service', err('relay', 'unknown', { status: 504 }), 'unknown'],
    ['connection dropped mid-answer', err('outcome-unknown', 'unknown'), 'unknown'],
    ['a 500 (may follow a commit)', err('server-error', 'yes', { status: 500 }), 'unknown'],
    ['an answer that does not parse', err('bad-answer', 'yes'), 'unknown'],
    ['a validation rejection', err('rejected', 'yes', { status: 400 }), 'failed'],
    ['forbidden', err('forbidden', 'yes', { status: 403 }), 'failed'],
    ['cancelled before sending', err('cancelled', 'no'), 'not sent'],
    ['not our error at all', new TypeError('boom'), 'unknown'],
  ])('%s → %s', (_what, e, kind) => {
    expect(verdictOf(e).kind).toBe(kind);
  });

  it('an invalid key stops the run and sends nothing more', () => {
    expect(verdictOf(err('invalid-credentials', 'yes', { status: 401 }))).toMatchObject({
      kind: 'not sent',
      stop: true,
    });
  });
});

describe('the message of a refused row', () => {
  it('names each field the service listed once, not twice', () => {
    const body = JSON.stringify({
      message: 'Validation failed.',
      errors: [{ field: 'Name', message: 'Name is required.' }],
    });
    const e = errorFromAnswer(catalog.operation('incident-create'), 400, new Headers(), body);
    const { kind, message } = verdictOf(e);
    expect(kind).toBe('failed');
    expect(message).toContain('Name: Name is required');
    expect(message.split('Name is required').length - 1).toBe(1);
  });

  it('keeps the client message of a body the catalogue refused, which already lists its fields', () => {
    const e = new ApiError({
      code: 'invalid-body',
      sent: 'no',
      details: [{ field: 'Name', message: 'too long' }],
      message: '"Create incident" was not sent: Name: too long. Correct these fields and send again.',
    });
    expect(verdictOf(e)).toEqual({ kind: 'failed', message: e.message });
  });
});
