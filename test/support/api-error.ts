import { isApiError, type ApiError } from '../../src/client';

/**
 * The ApiError a client call fails with. A call that succeeds, or fails with anything else, fails the
 * test: the assertions that follow are about the error's fields, so there must be one.
 */
export async function failureOf(call: Promise<unknown> | (() => Promise<unknown>)): Promise<ApiError> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}
