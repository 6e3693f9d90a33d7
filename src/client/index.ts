export { createClient, withHasher, type ClientOptions, type GrcClient } from './client';
export {
  ApiError,
  isApiError,
  API_ERROR_CODES,
  type ApiErrorCode,
  type ErrorDetail,
  type Sent,
} from './api-error';
export { type RelayReference, type RelayRefusal } from './relay-reference';
export type { DataRecord, DownloadOptions, DownloadProgress, DownloadResult } from './download';
export type { CallOptions } from './call';
export { checkStatement, type EvidenceCheck, type EvidenceCode, type Hasher } from './statement-check';
export type { Fetch } from './request';
export { JsonArraySplitter, MalformedAnswer } from './json-array-splitter';
export { RETRY, sleep, withRetry, type RetryDecision, type RetryPolicy, type Retried, type Sleep } from './retry';
