import type { ApiKey } from '../keys';
import type { Outcome } from '../errors';
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
