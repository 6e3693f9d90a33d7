import { isApiError, type DataRecord } from '../client';
import { isDirectoryDataset } from './checks/directory';
import { sleep } from './runner';

export type { DataRecord };

/**
 * What write-back needs from the client. The client (`src/client`) satisfies it; tests and benchmarks
 * may pass their own. Records are plain objects as the catalogue's record schemas describe them.
 */
export interface WritebackApi {
  download(datasetId: string, options?: { signal?: AbortSignal }): Promise<{ records: DataRecord[] }>;
  call(
    operationId: string,
    options?: { params?: { guid?: string }; body?: unknown; signal?: AbortSignal },
  ): Promise<unknown>;
}

/** Standing data and current records by dataset id, loaded once per validation or run. */
export type Standing = ReadonlyMap<string, readonly DataRecord[]>;

export async function loadStanding(
  api: WritebackApi,
  datasetIds: readonly string[],
  signal?: AbortSignal,
): Promise<Standing> {
  const loaded = await Promise.all(
    datasetIds.map(async (id) => [id, await (isDirectoryDataset(id) ? downloadDirectory(api, id, signal) : downloadRecords(api, id, signal))] as const),
  );
  // A directory dataset the environment lacks is left out: its names are then checked by the service.
  return new Map(loaded.filter((e): e is readonly [string, DataRecord[]] => e[1] !== undefined));
}

/** Reading changes nothing, so a read that failed on the way is simply read again (a few times). */
const RETRYABLE_READ = new Set([
  'unreachable',
  'unavailable',
  'rate-limited',
  'outcome-unknown',
  'server-error',
  'bad-answer',
  'relay',
]);
const READ_ATTEMPTS = 4;

export async function downloadRecords(
  api: WritebackApi,
  datasetId: string,
  signal?: AbortSignal,
): Promise<DataRecord[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await api.download(datasetId, { signal })).records;
    } catch (e) {
      if (attempt >= READ_ATTEMPTS || signal?.aborted || !isApiError(e) || !RETRYABLE_READ.has(e.code))
        throw e;
      await sleep(Math.min(e.retryAfterMs ?? 100 * 2 ** (attempt - 1), 5_000), signal);
    }
  }
}

/** A directory dataset, or undefined when the environment does not have it (404 on the assumed path). */
async function downloadDirectory(api: WritebackApi, datasetId: string, signal?: AbortSignal) {
  try {
    return await downloadRecords(api, datasetId, signal);
  } catch (e) {
    if (isApiError(e) && e.code === 'not-found') return undefined;
    throw e;
  }
}

export function records(standing: Standing, datasetId: string): readonly DataRecord[] {
  return standing.get(datasetId) ?? [];
}

export const str = (r: DataRecord, field: string): string | undefined =>
  typeof r[field] === 'string' ? (r[field] as string) : undefined;
