/**
 * A relay refusal's message: "The relay says: <its sentence> (<its code>, <status>)". The message is all
 * that travels everywhere an error goes (a load's error, a row's result, the headless commands' output), so
 * the code and status ride in it; a screen that shows a plain sentence takes them off with
 * `splitRelayReference` and shows them as a detail. Both ends of that format live here.
 */
export interface RelayReference {
  /** The relay's own code (src/relay/errors.ts): policy-refused, upstream-timeout ... */
  code: string;
  status: number;
}

const SAYS = 'The relay says: ';
const REFERENCE = /\s*\(([a-z][a-z0-9-]*), (\d{3})\)$/;

export function relaySays(sentence: string, reference: RelayReference): string {
  return `${SAYS}${sentence} (${reference.code}, ${reference.status})`;
}

/**
 * The message without its relay reference, and the reference, when it is a relay refusal's; any other
 * message (a service's answer ending in a parenthesis included) as it is.
 */
export function splitRelayReference(message: string): { text: string; reference?: RelayReference } {
  const m = message.startsWith(SAYS) ? REFERENCE.exec(message) : null;
  if (!m) return { text: message };
  return { text: message.slice(0, m.index), reference: { code: m[1]!, status: Number(m[2]) } };
}
