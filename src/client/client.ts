import { catalog as defaultCatalog, type Answer, type Catalog, type EncodedRequest, type Endpoint, type SentWrite } from '../catalog';
import { ApiError } from './api-error';
import { basicAuthorization } from './basic-auth';
import { call, sendEncoded, type CallOptions } from './call';
import { download, type DownloadOptions, type DownloadResult } from './download';
import type { Connection, Fetch } from './request';
import { checkReceiptByRef, checkStatement, statementIdOf, type EvidenceCheck, type Hasher } from './statement-check';

export interface ClientOptions {
  /** The environment's API root: `http://127.0.0.1:4010/api` (sandbox), `https://relay/api/<env>` (relay). */
  baseUrl: string;
  /** An API key's identifier and password (shown once when the key is saved). */
  credentials: { identifier: string; password: string };
  /** A fetch to use instead of the global one (tests, a fetch with a proxy agent). */
  fetch?: Fetch;
  /** A catalogue with overridden paths; the default catalogue otherwise. */
  catalog?: Catalog;
}

export interface GrcClient {
  readonly baseUrl: string;
  download(datasetId: string, options?: DownloadOptions): Promise<DownloadResult>;
  call(operationId: string, options?: CallOptions): Promise<unknown>;
  /** Sends a request encoded through the environment's binding (catalog encodeRequest) as it is; the raw answer. */
  send(operationId: string, request: EncodedRequest, options?: { signal?: AbortSignal; sent?: (write: SentWrite) => void }): Promise<Answer>;
  /**
   * The relay's signed receipt of a write `send` made (its answer's headers name it), verified against the
   * relay's published keys: what the write-back audit row keeps.
   */
  receipt(answer: Answer): Promise<EvidenceCheck>;
  /** The receipt of a write whose answer was lost, by the reference it was sent with (`send`'s `sent`). */
  receiptOf(write: SentWrite): Promise<EvidenceCheck>;
  /** Loads a small DirectData dataset to prove the base URL and key work; resolves with its record count. */
  testConnection(signal?: AbortSignal): Promise<{ count: number }>;
}

/**
 * The client with its downloads hashing their bytes for the relay's statement with `hasher`: node:crypto's
 * in the CLI (cli/digest.ts), the hashing worker's in the taskpane (sha256-thread.ts).
 */
export const withHasher = <C extends { download(id: string, o?: DownloadOptions): Promise<DownloadResult> }>(client: C, hasher: () => Hasher): C => ({
  ...client,
  download: (id: string, o?: DownloadOptions) => client.download(id, { ...o, hasher }),
});

/** The dataset testConnection loads: small, and DirectData, so it needs the key's Get direct data. */
const CONNECTION_TEST_DATASET = 'auditworkflow';

export function createClient(options: ClientOptions): GrcClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const cat = options.catalog ?? defaultCatalog;
  const conn: Connection = {
    baseUrl,
    authorization: basicAuthorization(options.credentials.identifier, options.credentials.password),
    // Called through a wrapper: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
  return {
    baseUrl,
    download: async (datasetId, o) => download(conn, available(cat.dataset(datasetId)), o),
    call: async (operationId, o) => call(conn, available(cat.operation(operationId)), o),
    send: async (operationId, request, o) => sendEncoded(conn, available(cat.operation(operationId)), request, o?.signal, o?.sent),
    receipt: (answer) => checkStatement(conn, statementIdOf(answer.headers), { kind: 'write', sentSha256: answer.sentSha256, writeRef: answer.writeRef }),
    receiptOf: async (write) =>
      // Asked only of a relay that signs: a service reached directly has no statements route for the key to go to.
      conn.signs
        ? checkReceiptByRef(conn, write)
        : { ok: false, code: 'unsigned', message: 'No answer through this connection named a statement: no receipt asked for.' },
    async testConnection(signal) {
      const { count } = await download(
        conn,
        cat.dataset(CONNECTION_TEST_DATASET),
        signal ? { signal, onBatch: () => undefined } : { onBatch: () => undefined },
      );
      return { count };
    },
  };
}

/**
 * An endpoint this environment's binding lacks (or leaves ambiguous) is refused here, before anything is
 * sent: its path would be a guess (the relay refuses it as well).
 */
function available<E extends Endpoint>(endpoint: E): E {
  if (!endpoint.unavailable) return endpoint;
  throw new ApiError({
    code: 'not-found',
    sent: 'no',
    endpoint: endpoint.id,
    message: `"${endpoint.title}" is not available on this environment: ${endpoint.unavailable.message}`,
  });
}

/** Absolute http(s), no credentials in it (they would end up in logs), no trailing slash. */
function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(
      `The base URL "${raw}" is not an absolute URL; expected e.g. https://grc.example.com/api`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`The base URL must start with https:// or http://, not ${url.protocol}`);
  if (url.username || url.password)
    throw new TypeError(
      'The base URL must not contain credentials; give them as the API key identifier and password.',
    );
  if (url.search || url.hash) throw new TypeError('The base URL must not have a query or fragment.');
  return url.href.replace(/\/+$/, '');
}
