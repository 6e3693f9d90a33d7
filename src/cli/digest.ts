import { createHash } from 'node:crypto';
import { withHasher, type DownloadOptions, type DownloadResult } from '../client';
import { fingerprinter } from '../loading/fingerprint';
import type { TextDigest } from '../loading/tableprint';

/** node:crypto's SHA-256 fed piece by piece: the shape the fingerprinter and the client's download hash take. */
export const nodeSha256 = () => {
  const hash = createHash('sha256');
  return { update: (bytes: Uint8Array) => hash.update(bytes), hex: () => hash.digest('hex') };
};

/** node:crypto's SHA-256 for the cell prints' digests of digests (each row's own is the built-in's: tableprint.ts). */
export const nodeDigest: TextDigest = { stream: nodeSha256 };

export const nodeFingerprints = () => fingerprinter(nodeSha256);

/**
 * A client whose downloads hash their bytes for the relay's statement with node:crypto (about ten times
 * the plain TypeScript SHA-256 the client uses by default, for the browser).
 */
export const withNodeHash = <C extends { download(id: string, o?: DownloadOptions): Promise<DownloadResult> }>(client: C): C => withHasher(client, nodeSha256);
