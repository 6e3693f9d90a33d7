import { createHash, hash } from 'node:crypto';
import { fingerprinter } from '../loading/fingerprint';
import type { TextDigest } from '../loading/tableprint';

/** node:crypto's SHA-256 for the fingerprints (the pure one in src/loading is for the browser); `hash` is Node 20.12+. */
export const nodeDigest: TextDigest = (text) => hash('sha256', text);

export const nodeFingerprints = () =>
  fingerprinter(() => {
    const hash = createHash('sha256');
    return { update: (bytes: Uint8Array) => hash.update(bytes), hex: () => hash.digest('hex') };
  });
