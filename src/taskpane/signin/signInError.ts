/** A sign-in failure worth telling the user about, with what to do. */
export class SignInError extends Error {
  override readonly name = 'SignInError';
}

/** The person pressed Cancel: nothing to report. */
export class SignInCancelled extends SignInError {}
