import type { Answer, DatasetId, DatasetRecord, EncodedRequest, SentWrite } from '../catalog';
import { isApiError, RETRY, withRetry, type DataRecord, type RetryDecision, type Sleep } from '../client';
import type { LackingDataset } from './environment/availability';
import { isDirectoryDataset } from './checks/directory';

export type { DataRecord };

/**
 * What write-back needs from the client. The client (`src/client`) satisfies it; tests and benchmarks
 * may pass their own. Records are plain objects as the catalogue's record schemas describe them.
 */
export interface WritebackApi {
  download(datasetId: string, options?: { signal?: AbortSignal; evidence?: boolean }): Promise<{ records: DataRecord[] }>;
  /** Sends a request encoded for the environment's file (environment/encode.ts) as it is; the raw answer. */
  /** `sent` is told each write's body hash and reference as it goes (the audit row keeps them even when no answer comes). */
  send(operationId: string, request: EncodedRequest, options?: { signal?: AbortSignal; sent?: (write: SentWrite) => void }): Promise<Answer>;
  /**
   * The relay's signed receipt of a write `send` made, checked (client `receipt`, EvidenceCheck): what the
   * audit row keeps. Absent where nothing signs (tests' own apis).
   */
  receipt?(answer: Answer): Promise<{ ok: boolean; statement?: string; code?: string; message?: string }>;
  /** The receipt of a write whose answer was lost, by its reference (client `receiptOf`); absent as above. */
  receiptOf?(write: SentWrite): Promise<{ ok: boolean; statement?: string; code?: string; message?: string }>;
}

/** Standing data and current records by dataset id, loaded once per validation or run. */
export type Standing = ReadonlyMap<string, readonly DataRecord[]>;

/**
 * Loads the datasets a flow reads. A dataset the environment lacks is left out (the flow then asks for
 * GUIDs and says what it cannot check); one whose path is only assumed is tried, and left out when the
 * service has nothing there (404), rather than failing the template or the post.
 */
export async function loadStanding(
  api: WritebackApi,
  datasetIds: readonly string[],
  signal?: AbortSignal,
  lacking: readonly LackingDataset[] = [],
  /** Lists the environment's file looks names up in (environment/context.ts `listsNeeded`): absent ones are left out. */
  lists: readonly string[] = [],
): Promise<Standing> {
  const ids = [...datasetIds, ...lists.filter((l) => !datasetIds.includes(l))];
  const loaded = await Promise.all(
    ids.map(
      async (id) =>
        [
          id,
          await (isDirectoryDataset(id) || !datasetIds.includes(id)
            ? downloadDirectory(api, id, signal)
            : readLacking(api, id, lacking, signal)),
        ] as const,
    ),
  );
  // A dataset the environment lacks is left out: a directory's names are then checked by the service,
  // another's absence was said up front (availability).
  return new Map(loaded.filter((e): e is readonly [string, DataRecord[]] => e[1] != null));
}

/** A dataset's records, or null when the environment lacks it (see loadStanding). */
export async function readLacking(
  api: WritebackApi,
  datasetId: string,
  lacking: readonly LackingDataset[],
  signal?: AbortSignal,
): Promise<DataRecord[] | null> {
  const lacks = lacking.find((l) => l.id === datasetId);
  if (lacks && lacks.reason !== 'assumed') return null;
  try {
    return await downloadRecords(api, datasetId, signal);
  } catch (e) {
    if (lacks && isApiError(e) && e.code === 'not-found') return null;
    throw e;
  }
}

/** Reading changes nothing, so a read that failed on the way is simply read again (client/retry.ts, RETRY.read). */
const RETRYABLE_READ = new Set([
  'unreachable',
  'unavailable',
  'rate-limited',
  'outcome-unknown',
  'server-error',
  'bad-answer',
  'relay',
]);

/** A read's failures: any passing one is retried; "busy, come back after N seconds" is waited out. */
export function classifyRead(e: unknown): RetryDecision {
  if (!isApiError(e) || !RETRYABLE_READ.has(e.code)) return { retry: false };
  const busy = (e.code === 'rate-limited' || e.code === 'unavailable') && e.retryAfterMs !== undefined;
  return busy ? { retry: true, afterMs: e.retryAfterMs, busy } : { retry: true };
}

export async function downloadRecords(
  api: WritebackApi,
  datasetId: string,
  signal?: AbortSignal,
  wait?: Sleep,
): Promise<DataRecord[]> {
  const read = await withRetry(
    async () => (await api.download(datasetId, { signal, evidence: false })).records,
    classifyRead,
    RETRY.read,
    { signal, ...(wait ? { sleep: wait } : {}) },
  );
  if (!read.ok) throw read.error;
  return read.value;
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

/**
 * A loaded dataset's records, typed by the catalogue's schema for it (the client checked each record
 * against that schema), so a field the catalogue renames fails to compile where write-back reads it.
 */
export function records<D extends DatasetId>(standing: Standing, datasetId: D): readonly DatasetRecord<D>[] {
  return (standing.get(datasetId) ?? []) as readonly DatasetRecord<D>[];
}

/** A text field's value, undefined when empty or not text; `field` must be one the record's type has. */
export const str = <T extends object>(r: T, field: keyof T & string): string | undefined => {
  const value: unknown = r[field];
  return typeof value === 'string' ? value : undefined;
};
