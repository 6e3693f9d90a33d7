import { createHash } from 'node:crypto';
import { withHasher, type DownloadOptions, type DownloadResult } from '../client';
import type { LineDigests } from '../client/sha256-thread';
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

/**
 * node:crypto for a first load's row digests (the hand-edit check's cell print): the same SHA-256 of the
 * same canonical line as the built-in TypeScript one makes (the taskpane's worker is given the same lines),
 * about a second less of 200,000 risks.
 */
export const nodeLineDigests = (): LineDigests => ({
  add: (line, out, to) => out.set(createHash('sha256').update(line).digest(), to),
  paced: () => undefined,
  settled: () => Promise.resolve(),
});
