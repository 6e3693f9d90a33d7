import type { DataRecord, DatasetSource } from '../../src/loading/load';

export interface FakeClientOptions {
  batchSize?: number;
  /** Throw this error after handing over this many batches. */
  failAfterBatches?: { batches: number; error: Error };
}

export function apiError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'ApiError', code });
}

/**
 * A stand-in for the client's `download`: hands records over in batches, yielding to the event loop
 * between batches (as a network stream would), honouring the AbortSignal like the real client.
 */
export function fakeClient(records: readonly DataRecord[] | ((datasetId: string) => readonly DataRecord[]), options: FakeClientOptions = {}) {
  const calls: { datasetId: string; params?: unknown }[] = [];
  const client: DatasetSource = {
    async download(datasetId, { params, signal, onBatch, onProgress }) {
      calls.push({ datasetId, params });
      const all = typeof records === 'function' ? records(datasetId) : records;
      const size = options.batchSize ?? 1000;
      let bytes = 0;
      let batches = 0;
      for (let i = 0; i < all.length || (i === 0 && all.length === 0); i += size) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (signal?.aborted) throw apiError('cancelled', 'The download was cancelled.');
        if (options.failAfterBatches && batches === options.failAfterBatches.batches) throw options.failAfterBatches.error;
        const batch = all.slice(i, i + size);
        bytes += JSON.stringify(batch).length;
        batches++;
        onProgress?.({ bytes, records: Math.min(i + size, all.length) });
        if (batch.length) onBatch?.([...batch]);
        if (all.length === 0) break;
      }
      return { bytes, count: all.length };
    },
  };
  return { client, calls };
}
