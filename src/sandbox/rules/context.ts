import type { Rec } from '../data/context';
import type { ApiKey } from '../keys';
import { failure, rejected, type Outcome } from '../errors';
import type { Store } from '../store';

/** What a write operation gets: the store, the calling key, the path GUID and the schema-checked body. */
export interface WriteCtx<B = unknown> {
  store: Store;
  key: ApiKey;
  guid?: string;
  body: B;
  now: Date;
}
export type WriteHandler<B = unknown> = (w: WriteCtx<B>) => Outcome;

export const today = (now: Date) => now.toISOString().slice(0, 10);
export const stamp = (now: Date) => now.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A write on the record its path GUID names: every such operation answers not-found the same way when
 * the GUID names nothing, so the handler only sees a record that exists.
 */
export function onRecord<B>(
  datasetId: string,
  what: string,
  handler: (w: WriteCtx<B>, record: Rec) => Outcome,
): WriteHandler<B> {
  return (w) => {
    const record = w.store.find(datasetId, w.guid!);
    return record ? handler(w, record) : failure('notFound', `No ${what} with GUID ${w.guid}.`);
  };
}

/** Document uploads carry their content as base64; anything else is refused before it is stored. */
export function invalidBase64(content: string): Outcome | null {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(content)
    ? null
    : rejected([{ field: 'ContentBase64', message: 'ContentBase64 is not valid base64.' }]);
}

/** Documents of incidents and tasks share one GUID sequence, far from generated indexes. */
export const newDocumentId = (store: Store) =>
  store.ctx.guid('document', store.nextIndex('document', 1_000_000));
