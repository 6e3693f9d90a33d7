/**
 * A relay refusal as values: the relay's code and status, and its sentence. An error keeps them apart
 * (`ApiError.relay`), so a screen shows the sentence plain with the code and status behind "Details", and
 * nothing has to be read back out of a message. Text-only showers (the headless commands' output, a row's
 * result, logs) print `message`, the one line made here from the same values.
 */
export interface RelayReference {
  /** The relay's own code (src/relay/errors.ts): policy-refused, upstream-timeout ... */
  code: string;
  status: number;
}

export interface RelayRefusal extends RelayReference {
  /** "The relay says: <its sentence>", without the code and status. */
  sentence: string;
}

/** The relay's refusal as an error's `relay` and its one-line `message`: "The relay says: <sentence> (<code>, <status>)". */
export function relaySays(said: string, reference: RelayReference): { relay: RelayRefusal; message: string } {
  const sentence = `The relay says: ${said}`;
  return { relay: { ...reference, sentence }, message: `${sentence} (${reference.code}, ${reference.status})` };
}
