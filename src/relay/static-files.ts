import { createReadStream, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { acceptedCoding, varyOn, type Coding } from './compress';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/**
 * Headers for the add-in's pages. Office on the web shows the taskpane in an iframe of an Office host, so
 * framing is limited to Office's hosts (no X-Frame-Options: it cannot list several). Office.js itself may
 * come from Microsoft's CDN, the one script source besides our own. Calls go to our own origin only.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self' https://appsforoffice.microsoft.com",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    'frame-ancestors https://*.office.com https://*.office365.com https://*.officeapps.live.com https://*.microsoft.com https://*.sharepoint.com https://*.live.com',
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * Webpack's content-hashed scripts (`[name].[contenthash:8].js`, webpack.config.js): a name never gets
 * other bytes, so browsers keep them a year without asking again. Everything else (the pages first, which
 * name the current scripts) is revalidated on every load (ETag), so an updated add-in reaches users at once.
 */
const HASHED = /\.[0-9a-f]{8}\.(js|mjs|css)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The file extension of each coding's copy beside a file (scripts/precompress.js writes them at build). */
const COPY_EXTENSION: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/** Whether If-None-Match names `etag` (weak comparison, RFC 9110 13.1.2; `*` matches any). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/** Splits a raw URL path into decoded segments, refusing anything that could climb out of the folder. */
function segmentsOf(rawPath: string): string[] | null {
  const out: string[] = [];
  for (const part of rawPath.slice(1).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (seg === '') continue;
    if (seg === '.' || seg === '..' || /[\\/\0%:]/.test(seg) || seg.startsWith('.')) return null;
    out.push(seg);
  }
  return out;
}

export interface StaticFiles {
  /** Serves the file for a GET or HEAD; false when there is none (the caller answers 404). */
  serve(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<boolean>;
}

/** The taskpane's sign-in page (webpack entry `sign-in`, docs/taskpane.md). */
export const SIGN_IN_PAGE = 'sign-in.html';

/** PAGE_HEADERS with the sign-in provider's origins added to connect-src (the pages call its token endpoint). */
export function pageHeaders(connectOrigins: readonly string[]): Record<string, string> {
  if (connectOrigins.length === 0) return PAGE_HEADERS;
  return {
    ...PAGE_HEADERS,
    'content-security-policy': PAGE_HEADERS['content-security-policy']!.replace(
      "connect-src 'self'",
      `connect-src 'self' ${connectOrigins.join(' ')}`,
    ),
  };
}

export async function createStaticFiles(
  dir: string,
  connectOrigins: readonly string[] = [],
): Promise<StaticFiles> {
  // Resolved once: symlinks inside the folder may not point out of it.
  const root = await realpath(dir);
  const headers = Object.entries(pageHeaders(connectOrigins));
  // The sign-in page is opened by Office's dialog API (on the web: a window of Office's own page) and
  // answers it with messageParent, which a new browsing context group (COOP same-origin-*) would cut off.
  const signInHeaders = headers.map(([k, v]): [string, string] =>
    k === 'cross-origin-opener-policy' ? [k, 'unsafe-none'] : [k, v],
  );

  async function resolve(rawPath: string): Promise<{ file: string; stats: Stats } | null> {
    if (rawPath.includes('//')) return null;
    const segments = segmentsOf(rawPath);
    if (!segments) return null;
    let file = join(root, ...segments);
    try {
      let stats = await stat(file);
      if (stats.isDirectory()) {
        file = join(file, 'index.html');
        stats = await stat(file);
      }
      // The real path is checked too: a symlink inside the folder may point at a dot file (.env) or out of it.
      const real = await realpath(file);
      if (!real.startsWith(root + sep) || !stats.isFile()) return null;
      if (
        real
          .slice(root.length + 1)
          .split(sep)
          .some((seg) => seg.startsWith('.'))
      )
        return null;
      return { file: real, stats };
    } catch {
      return null;
    }
  }

  /**
   * The build's compressed copies of a file: inside the folder (real path checked like the file's), a
   * regular file, and not older than the file (a copy left from an earlier build would be other bytes).
   */
  async function copies(file: string, stats: Stats): Promise<Map<Coding, { file: string; size: number }>> {
    const found = new Map<Coding, { file: string; size: number }>();
    for (const coding of Object.keys(COPY_EXTENSION) as Coding[]) {
      try {
        const copy = await realpath(file + COPY_EXTENSION[coding]);
        const copyStats = await stat(copy);
        if (copy.startsWith(root + sep) && copyStats.isFile() && copyStats.mtimeMs >= stats.mtimeMs)
          found.set(coding, { file: copy, size: copyStats.size });
      } catch {
        // No copy of this coding: the file is served as it is to clients asking for it.
      }
    }
    return found;
  }

  return {
    async serve(req, res, rawPath) {
      const found = await resolve(rawPath);
      if (!found) return false;
      const { file, stats } = found;
      const available = await copies(file, stats);
      const coding = acceptedCoding(req.headers['accept-encoding'], [...available.keys()]);
      const sent = coding ? available.get(coding)! : { file, size: stats.size };
      // One ETag per representation: a cache holding the brotli bytes must not revalidate the gzip ones.
      const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${coding ? `-${coding}` : ''}"`;
      for (const [k, v] of basename(file) === SIGN_IN_PAGE ? signInHeaders : headers) res.setHeader(k, v);
      res.setHeader('content-type', CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
      res.setHeader('cache-control', HASHED.test(file) ? IMMUTABLE : 'no-cache');
      res.setHeader('etag', etag);
      if (available.size > 0) varyOn(res, 'Accept-Encoding');
      if (matches(req.headers['if-none-match'], etag)) {
        res.statusCode = 304;
        res.end();
        return true;
      }
      if (coding) res.setHeader('content-encoding', coding);
      res.setHeader('content-length', sent.size);
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      // A client that leaves mid-file is not a fault; whatever the cause, the answer cannot be completed.
      await pipeline(createReadStream(sent.file), res).catch(() => res.destroy());
      return true;
    },
  };
}
