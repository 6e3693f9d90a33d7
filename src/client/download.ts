import { recordDecoder, recordsOf, type Dataset, type PathParams } from '../catalog';
import { ApiError } from './api-error';
import { errorFromFailure } from './fetch-failure';
import { JsonArraySplitter, MalformedAnswer } from './json-array-splitter';
import { checkRecords } from './record-check';
import { send, type Connection } from './request';
import { checkStatement, defaultHasher, statementIdOf, type EvidenceCheck, type Hasher } from './statement-check';

/** One record of a dataset, as the service sent it (fields the catalogue does not know are kept). */
export type DataRecord = Record<string, unknown>;

export interface DownloadProgress {
  /** Bytes of the answer received so far (after any content decoding). */
  bytes: number;
  records: number;
  /** From Content-Length, when the server gave one and the body is not compressed. */
  totalBytes?: number;
}

export interface DownloadOptions {
  params?: PathParams;
  signal?: AbortSignal;
  onProgress?(progress: DownloadProgress): void;
  /** Records as they stream in. The download waits for a returned promise (backpressure). */
  onBatch?(records: DataRecord[]): void | Promise<void>;
  /**
   * The SHA-256 the bytes are hashed with for the relay's statement: node:crypto's in Node is faster, and the
   * taskpane hashes on a worker (sha256-thread.ts).
   */
  hasher?: () => Hasher;
  /**
   * false: the relay's statement is neither hashed for nor fetched (evidence 'unsigned'), for reads that
   * leave nothing in the workbook (write-back lookups, `check`): one call instead of two per read.
   */
  evidence?: boolean;
}

export interface DownloadResult {
  /** Empty when `onBatch` was given: the records went there. */
  records: DataRecord[];
  bytes: number;
  count: number;
  /**
   * The relay's signed statement of this download, checked: its signature against the relay's published
   * keys, its hash, length and record count against what was received (statement-check.ts).
   */
  evidence: EvidenceCheck;
}

/**
 * GETs a dataset and hands its records over as they arrive. The body is read as a stream, split into
 * records by JsonArraySplitter and checked against the dataset's record schema batch by batch, so memory
 * holds one batch of text at a time and the first bad record stops the download.
 */
export async function download(
  conn: Connection,
  dataset: Dataset,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const { signal, onProgress, onBatch } = options;
  const response = await send(conn, dataset, {
    ...(options.params ? { params: options.params } : {}),
    ...(signal ? { signal } : {}),
  });
  const totalBytes = contentLength(response.headers);
  const progress = (bytes: number, records: number) =>
    onProgress?.(totalBytes === undefined ? { bytes, records } : { bytes, records, totalBytes });
  if (!response.body)
    throw badAnswer(dataset, 'The answer had no body where a JSON list of records was expected.');

  // The relay names the statement it signs of this answer; the bytes are hashed as they come to check it.
  const statementId = options.evidence === false ? null : statementIdOf(response.headers);
  const hash = statementId ? (options.hasher ?? defaultHasher)() : null;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const splitter = new JsonArraySplitter();
  const kept: DataRecord[] = [];
  let bytes = 0;
  let count = 0;
  let finished = false;

  // A bound dataset's records are read into the catalogue's fields as they stream in, batch by batch.
  const bound = dataset.binding;
  const toCatalogue = bound?.placements.length ? recordDecoder(bound) : undefined;
  const read = toCatalogue
    ? (batch: unknown[]) =>
        batch.map((r) => (typeof r === 'object' && r !== null && !Array.isArray(r) ? toCatalogue(r) : r))
    : (batch: unknown[]) => batch;
  // Records inside an envelope ({"data": [...]}): the answer is read whole, then the array taken out of it.
  const enveloped = bound !== undefined && bound.records !== '';
  let whole = '';

  const take = async (batches: unknown[][]) => {
    for (const wireBatch of batches) {
      const batch = read(wireBatch);
      const checked = checkRecords(dataset.record, batch, count);
      if (!checked.ok) {
        const { index, field, message } = checked.problem;
        const id = idOf(batch[index - count]);
        throw new ApiError({
          code: 'bad-answer',
          sent: 'yes',
          status: response.status,
          endpoint: dataset.id,
          details: [{ field, message, record: index + 1 }],
          message:
            `Record ${index + 1}${id ? ` (${id})` : ''} of "${dataset.title}" does not have the expected shape: ` +
            `${field ? `field ${field}: ` : ''}${message}. The download stopped there; the service may have changed this dataset.`,
        });
      }
      count += checked.records.length;
      if (onBatch) {
        await onBatch(checked.records);
        if (signal?.aborted) throw errorFromFailure(dataset, signal.reason, 'body', signal);
      } else {
        for (const r of checked.records) kept.push(r);
      }
    }
  };

  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        throw errorFromFailure(dataset, e, 'body', signal);
      }
      if (chunk.done) break;
      bytes += chunk.value.byteLength;
      // A hash on a worker that is behind asks to be waited for: after this chunk's records are handed over.
      const paced = hash?.update(chunk.value);
      if (enveloped) whole += decoder.decode(chunk.value, { stream: true });
      else await take(splitter.push(decoder.decode(chunk.value, { stream: true })));
      if (paced instanceof Promise) await paced;
      progress(bytes, count);
    }
    if (enveloped) await take([envelopedRecords(dataset, whole + decoder.decode(), response.status)]);
    else {
      await take(splitter.push(decoder.decode()));
      splitter.end();
    }
    finished = true;
  } catch (e) {
    if (e instanceof MalformedAnswer)
      throw badAnswer(dataset, `"${dataset.title}": ${e.message}`, response.status);
    // ApiErrors, and failures of the caller's own onBatch or onProgress, pass on as they are.
    throw e;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
  progress(bytes, count);
  const evidence = await checkStatement(
    conn,
    statementId,
    { kind: 'read', dataset: dataset.id, sha256: (await hash?.hex()) ?? '', length: bytes, records: count },
  );
  return { records: kept, bytes, count, evidence };
}

function envelopedRecords(dataset: Dataset, text: string, status: number): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badAnswer(dataset, `"${dataset.title}": the answer is not JSON.`, status);
  }
  const records = recordsOf(dataset.binding!, parsed);
  if (!records)
    throw badAnswer(dataset, `"${dataset.title}": the answer has no list of records at ${dataset.binding!.records}.`, status);
  return records;
}

function badAnswer(dataset: Dataset, message: string, status?: number): ApiError {
  return new ApiError({
    code: 'bad-answer',
    sent: 'yes',
    endpoint: dataset.id,
    message,
    ...(status ? { status } : {}),
  });
}

function contentLength(headers: Headers): number | undefined {
  const encoding = headers.get('content-encoding');
  if (encoding && encoding !== 'identity') return undefined;
  const value = headers.get('content-length');
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A record's Id or Identifier, to help the user find it in the service. */
function idOf(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const o = record as Record<string, unknown>;
  const id = o.Identifier ?? o.Id;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}
