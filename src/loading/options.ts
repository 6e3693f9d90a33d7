import type { Catalog, PathParams } from '../catalog';
import type { DataRecord } from '../client';
import type { LineDigests } from '../client/sha256-thread';
import type { DownloadEvidence } from '../evidence/record';
import type { WorkbookPort } from '../workbook/port';
import type { Fingerprinter } from './fingerprint';
import type { TextDigest } from './tableprint';
import type { LoadProgress } from './outcome';

/** What `load` needs of the client (`GrcClient.download`, docs/contracts.md). */
export interface DatasetSource {
  download(
    datasetId: string,
    options: {
      params?: PathParams;
      signal?: AbortSignal;
      onProgress?(p: { bytes: number; records: number; totalBytes?: number }): void;
      /** The download waits for a returned promise: how a slow workbook holds the stream back. */
      onBatch?(records: DataRecord[]): void | Promise<void>;
      /** false: no relay statement is fetched for this read (write-back lookups, `check`). */
      evidence?: boolean;
    },
  ): Promise<{ bytes: number; count: number; evidence?: DownloadEvidence }>;
}

export type LoadTarget = { kind: 'new-sheet' } | { kind: 'selection' } | { kind: 'table'; name: string };

/** What a load and a refresh both take. */
export interface LoadCommon {
  client: DatasetSource;
  workbook: WorkbookPort;
  /** The environment the client talks to (as the relay names it). */
  environment: string;
  /** Where the client fetches through, recorded in the load record for readers of the file. */
  source?: string;
  signal?: AbortSignal;
  onProgress?(p: LoadProgress): void;
  catalog?: Catalog;
  /**
   * Makes a fingerprint of each load's records (fingerprint.ts), kept in the table's load record. The host
   * passes it with the hash it has: node:crypto in the CLI; without it no fingerprint is recorded.
   */
  fingerprints?: () => Fingerprinter;
  /**
   * Where a first load's rows' cell digests (tableprint.ts) are made: the taskpane's hashing worker
   * (sha256-thread.ts); without it, on this thread as each row is written.
   */
  cellDigests?: () => LineDigests;
  /** SHA-256 for the cell fingerprints (tableprint.ts): node:crypto in Node; the built-in Sha256 otherwise. */
  digest?: TextDigest;
}

export interface LoadOptions extends LoadCommon {
  datasetId: string;
  params?: PathParams;
  target: LoadTarget;
  /** Loading at the selection may overwrite non-empty cells below it: the user said yes. */
  overwrite?: boolean;
  /** The record fields to show, in this order (the user's choice, columnplan.ts); default all, as a report orders them. */
  columns?: readonly string[];
  /** With `columns`: the fields the user left out; the record's other fields are shown too. Without it, only `columns`. */
  leftOut?: readonly string[];
  /** A new table's name (default `tbl_<dataset>`, numbered when taken) and new sheet's name (default the dataset's title). */
  names?: { table?: string; sheet?: string };
}

export interface RefreshOptions extends LoadCommon, ChangeOptions {
  table: string;
}

export interface ChangeOptions {
  /** Cells edited by hand since the last load are overwritten: the user was told which and said yes. */
  overwriteEdits?: boolean;
  /** Marks the cells the refresh changed (warning fill, the old value in a note) and the added records' keys. */
  highlightChanges?: boolean;
}
