import {
  boundaryOf,
  formMediaOf,
  pointerParts,
  readForm,
  type BoundOperation,
  type Endpoint,
  type FormMedia,
} from '../catalog';

/**
 * Form bodies through the relay, for the calls an environment's binding sends as a form (its API file takes
 * form data there: catalog/placement.ts `form`). The same guarantees as a JSON body: only on a call the
 * binding has, only the media type it names, within the body limits (read the same way, proxy.ts), and
 * checked before anything is sent: it parses as that form, and has no field the binding does not place.
 */

/** The form a bound operation's body goes as; undefined for JSON (and for every unbound call). */
export function boundForm(endpoint: Endpoint): FormMedia | undefined {
  const bound = endpoint.binding;
  return bound?.kind === 'operation' ? (bound as BoundOperation).form : undefined;
}

/** The form fields the binding places: what a form body of this call may hold. */
function boundFields(endpoint: Endpoint): Set<string> {
  const bound = endpoint.binding as BoundOperation;
  const fields = new Set<string>();
  for (const p of [...bound.placements, ...bound.extras])
    if (p.in === 'body') fields.add(pointerParts(p.at)[0] ?? '');
  return fields;
}

export const checkForm = {
  /** The Content-Type announces the binding's form (a multipart one with its boundary). */
  media(form: FormMedia, contentType: string | undefined): boolean {
    if (formMediaOf(contentType) !== form) return false;
    return form !== 'multipart' || boundaryOf(contentType) !== undefined;
  },
  /** Why a form body is refused, or undefined when it may be forwarded as it is. */
  body(endpoint: Endpoint, body: Buffer, contentType: string | undefined): string | undefined {
    const read = readForm(new Uint8Array(body.buffer, body.byteOffset, body.length), contentType);
    if (!read.ok) return `${read.message[0]!.toUpperCase()}${read.message.slice(1)}.`;
    const allowed = boundFields(endpoint);
    const unknown = [...new Set(read.fields.map((f) => f.name).filter((n) => !allowed.has(n)))];
    if (unknown.length)
      return `The binding has no form field ${unknown.map((n) => `"${n}"`).join(', ')} for this call.`;
    return undefined;
  },
};
