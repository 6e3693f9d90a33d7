import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { Sandbox } from '../../src/sandbox';

/**
 * A stand-in of the service's strictest reader, between the relay and the sandbox: it passes every request
 * on, and records each write after which a task field that had a value is empty (null, "", []). Through
 * grc-sheets a user cannot ask for that (a blank cell keeps the task's value), so any such record is a
 * full update that wiped what nobody touched: a test behind this guard fails on `blanked`.
 */
export interface BlankingGuard {
  /** The base URL to give the relay in place of the sandbox's. */
  url: string;
  /** One line per field a write emptied: method, path, field, value before. */
  blanked: string[];
  /** Writes that went through the guard (method and path). */
  writes: string[];
  close(): Promise<void>;
}

const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export async function startBlankingGuard(sandbox: Sandbox): Promise<BlankingGuard> {
  const target = new URL(sandbox.url);
  const blanked: string[] = [];
  const writes: string[] = [];

  async function pass(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    // Every task the path names, as it was before the request.
    const before = write
      ? path
          .split(/[/?:]/)
          .map((s) => sandbox.store.find('tasks', decodeURIComponent(s)))
          .filter((t) => t !== undefined)
          .map((t) => structuredClone(t))
      : [];
    if (write) writes.push(`${req.method} ${path}`);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k),
      ),
    ) as Record<string, string>;
    const answer = await request(`${target.origin}${path}`, {
      method: req.method as 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    for (const was of before) {
      const now = sandbox.store.find('tasks', String(was.Id))!;
      for (const [field, value] of Object.entries(was))
        if (!empty(value) && empty(now[field]))
          blanked.push(
            `${req.method} ${path}: ${field} was ${JSON.stringify(value)}, is now ${JSON.stringify(now[field] ?? null)}`,
          );
    }
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers))
      if (v !== undefined && !['connection', 'transfer-encoding', 'content-length', 'keep-alive'].includes(k))
        out[k] = v;
    res.writeHead(answer.statusCode, out);
    res.end(body);
  }

  const server = createServer((req, res) => {
    pass(req, res).catch((e: unknown) => {
      res.writeHead(502);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    blanked,
    writes,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
