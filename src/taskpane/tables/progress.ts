/** How far a load or refresh is: shown as a progress bar with bytes and rows. */
export interface Progress {
  bytes: number;
  rows: number;
  /** Known when the answer has a Content-Length. */
  totalBytes?: number;
  /** false once a refresh is replacing rows: from then on it runs to the end so the table stays whole. */
  cancellable: boolean;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
