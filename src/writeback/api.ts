/**
 * What write-back needs from the client. The client (`src/client`) satisfies it; tests and benchmarks
 * may pass their own. Records are plain objects as the catalogue's record schemas describe them.
 */
export type DataRecord = Record<string, unknown>;

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
    datasetIds.map(async (id) => [id, (await api.download(id, { signal })).records] as const),
  );
  return new Map(loaded);
}

export function records(standing: Standing, datasetId: string): readonly DataRecord[] {
  return standing.get(datasetId) ?? [];
}

export const str = (r: DataRecord, field: string): string | undefined =>
  typeof r[field] === 'string' ? (r[field] as string) : undefined;
