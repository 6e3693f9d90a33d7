/**
 * The service's strictest reader, as a watch on the bound sandbox's store (the approach of h/fullupdate's
 * blanking guard, kept in one small helper any proxy in front of the sandbox can call): before a write, the
 * tasks its path names are kept as they were; once the sandbox has answered, every field that had a value and
 * is now empty (null, "", []) is recorded. Through grc-sheets a user cannot ask for that (a blank cell keeps the
 * task's value), so any such record is a full update that wiped what nobody touched.
 */
import type { Sandbox } from '../../src/sandbox';

type Json = Record<string, unknown>;

export interface BlankingWatch {
  /** Called before a request goes on to the sandbox; what it returns is called once the sandbox has answered. */
  around(method: string, path: string): () => void;
  /** One line per field a write emptied: method, path, field, value before. */
  blanked: string[];
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export function watchBlanking(store: Pick<Sandbox['store'], 'find'>): BlankingWatch {
  const blanked: string[] = [];
  const find = (id: string) => store.find('tasks', id) as Json | undefined;
  return {
    blanked,
    around(method, path) {
      if (method === 'GET' || method === 'HEAD') return () => undefined;
      // Every task the path names (a custom method's `:advance` included), as it was before the request.
      const before = path
        .split(/[/?:]/)
        .flatMap((s) => {
          const t = s ? find(decodeURIComponent(s)) : undefined;
          return t ? [structuredClone(t)] : [];
        });
      return () => {
        for (const was of before) {
          const now = find(String(was.Id)) ?? {};
          for (const [field, value] of Object.entries(was))
            if (!empty(value) && empty(now[field]))
              blanked.push(`${method} ${path}: ${field} was ${JSON.stringify(value)}, is now ${JSON.stringify(now[field] ?? null)}`);
        }
      };
    },
  };
}
