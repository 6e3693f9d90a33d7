import { z } from 'zod';
import { bool, columnKindOf, date, number, text, textList, type Catalog, type Dataset } from '../catalog';
import { ApiError, isApiError, type DataRecord } from '../client';
import type { DownloadEvidence } from '../evidence/record';
import type { DatasetSource } from '../loading/load';
import { REGISTERS, datasetsRead, isRegisterId, registerOf, type FieldSet, type RegisterDefinition, type Resolution } from './registers';

/**
 * Opening a dataset for a load or a refresh: a plain dataset is the catalogue's, read by the client as it
 * is; a register's record schema is made from its custom field definitions (read now, so the table's
 * columns are known before its first row), and its source reads the values and the main dataset and
 * hands over joined records. Everything after that (rows, cell prints, fingerprints, the change report by
 * record key) is the plain dataset's path.
 */
export async function openDataset(catalog: Catalog, client: DatasetSource, id: string, signal?: AbortSignal): Promise<{ dataset: Dataset; client: DatasetSource }> {
  if (!isRegisterId(id)) return { dataset: catalog.dataset(id), client };
  const found = registerOf(id);
  if (!found) throw new ApiError({ code: 'not-found', sent: 'no', message: `There is no register "${id}"; registers: ${REGISTER_IDS()}.` });
  return openRegister(catalog, client, found.register, id, found.invisible, signal);
}

const REGISTER_IDS = () => REGISTERS.map((r) => r.id).join(', ');

/** A custom field as a column: its definition, its set, its typed conversion. */
interface CustomColumn {
  name: string;
  id: string;
  definitionName: string;
  set: FieldSet;
  multi: boolean;
  typed(value: unknown): unknown;
}

interface Definition {
  Id?: string | null;
  Name?: string | null;
  Type?: string | null;
  Visible?: boolean | null;
}

const GUID_FIELD = /(?:^Id|Guids?)$/;
// JavaScript orders integer-like keys first in an object, which would move such a column to the front.
const INTEGER_KEY = /^(?:0|[1-9]\d*)$/;

/** The column kind (a catalogue field builder) and value conversion for a definition's type. */
function typeOf(type: string | null | undefined): { field: () => z.ZodType; typed(v: unknown): unknown; multi: boolean } {
  const asText = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? null : String(v));
  switch (type) {
    case 'Number':
      return { field: number, multi: false, typed: (v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : asText(v)) };
    case 'Checkbox':
      return { field: bool, multi: false, typed: (v) => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : asText(v)) };
    case 'Date':
      return { field: date, multi: false, typed: (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T00:00:00(?:\.0+)?Z?$/.test(v) ? v.slice(0, 10) : asText(v)) };
    case 'MultiSelect':
      return { field: textList, multi: true, typed: asText };
    default:
      return { field: text, multi: false, typed: asText };
  }
}

async function openRegister(catalog: Catalog, client: DatasetSource, register: RegisterDefinition, id: string, invisible: boolean, signal?: AbortSignal): Promise<{ dataset: Dataset; client: DatasetSource }> {
  for (const part of datasetsRead(register)) {
    const d = catalog.datasets.find((x) => x.id === part);
    if (!d || d.unavailable) {
      throw new ApiError({ code: 'not-found', sent: 'no', endpoint: part, message: `The ${register.title} reads the dataset ${d?.title ?? part} (${part}), which this environment does not offer${d?.unavailable ? `: ${d.unavailable.message}` : '.'}` });
    }
  }
  // Progress counts the bytes of every dataset read (the finished ones and those under way: the lists and
  // the values are read together); cancel, a failed write or a failed read stops whichever are being read.
  let progress: ((p: { bytes: number; records: number }) => void) | undefined;
  let stop = signal;
  let done = 0;
  const live = new Map<string, number>();
  // The relay's statement of each dataset read, as the client checked it (docs/evidence.md "Registers"): the
  // definitions' from opening, the others' from the download, which starts its list afresh.
  const opened: NonNullable<DownloadEvidence['parts']> = [];
  let parts = opened;
  const read: Read = async (part, onBatch) => {
    try {
      const r = await client.download(part, {
        ...(stop ? { signal: stop } : {}),
        onBatch,
        onProgress: (p) => {
          live.set(part, p.bytes);
          let bytes = done;
          for (const b of live.values()) bytes += b;
          progress?.({ bytes, records: p.records });
        },
      });
      live.delete(part);
      done += r.bytes;
      if (r.evidence) parts.push({ dataset: part, ...r.evidence });
      return r;
    } catch (e) {
      throw refusalNaming(e, register, catalog.dataset(part));
    }
  };
  const readAll = async (part: string) => {
    const out: DataRecord[] = [];
    await read(part, (records) => {
      for (const r of records) out.push(r);
    });
    return out;
  };

  const main = catalog.dataset(register.main);
  const shape = main.record.shape as Record<string, z.ZodType>;
  const fieldNames = Object.keys(shape);
  const isGuidField = (name: string) => GUID_FIELD.test(name) || columnKindOf(shape[name]!) === 'guid';
  const plain = fieldNames.filter((f) => !isGuidField(f));
  const guids = fieldNames.filter(isGuidField);
  const added = register.resolve.filter((r) => !r.byName);
  const taken = new Set([...fieldNames, ...added.map((r) => r.column)]);

  // The custom fields, in the definitions' order, set by set.
  const custom: CustomColumn[] = [];
  const customFields = new Map<string, z.ZodType>();
  for (const set of register.fields) {
    for (const d of (await readAll(set.definitions)) as Definition[]) {
      if (!d.Id || !d.Name || (d.Visible === false && !invisible)) continue;
      let name = d.Name;
      if (taken.has(name) || INTEGER_KEY.test(name)) name = `${d.Name} (${set.label})`;
      for (let k = 2; taken.has(name); k++) name = `${d.Name} (${set.label} ${k})`;
      taken.add(name);
      const t = typeOf(d.Type);
      custom.push({ name, id: d.Id.toLowerCase(), definitionName: d.Name, set, multi: t.multi, typed: t.typed });
      customFields.set(name, t.field());
    }
  }

  const record = z.looseObject({
    ...Object.fromEntries(plain.map((f) => [f, shape[f]!])),
    ...Object.fromEntries(added.map((r) => [r.column, columnKindOf(shape[r.field]!) === 'list' ? textList() : text()])),
    ...Object.fromEntries(custom.map((c) => [c.name, customFields.get(c.name)!])),
    ...Object.fromEntries(guids.map((f) => [f, shape[f]!])),
  });
  const dataset: Dataset = { ...registerEntry(register, main), id, record };

  const source: DatasetSource = {
    async download(_id, options) {
      done = 0;
      live.clear();
      parts = [...opened];
      progress = options.onProgress;
      const outer = options.signal ?? signal;
      const ctl = new AbortController();
      if (outer?.aborted) ctl.abort(outer.reason);
      else outer?.addEventListener('abort', () => ctl.abort(outer.reason), { once: true });
      stop = ctl.signal;
      // The values and the lists are independent: read together, the service makes one while we parse the other.
      let values: Map<string, unknown[]>;
      let lookups: Map<Resolution, Map<string, string>>;
      try {
        [values, lookups] = await Promise.all([readValues(register, custom, read), readLookups(register, read, readAll)]);
      } catch (e) {
        ctl.abort(e);
        throw e;
      }
      const join = joiner(plain, guids, register.resolve, lookups, custom, values);
      const r = await read(register.main, (records) => options.onBatch?.(records.map(join)));
      return { bytes: done, count: r.count, evidence: { ok: false, parts } };
    },
  };
  return { dataset, client: source };
}

/** The register as an entry of the dataset list: the main dataset's record until the definitions are read. */
export function registerEntry(register: RegisterDefinition, main: Dataset): Dataset {
  return {
    kind: 'dataset',
    method: 'GET',
    id: register.id,
    path: '',
    version: null,
    area: register.area,
    title: register.title,
    description: `${register.description} Reads ${datasetsRead(register).join(', ')}.`,
    record: main.record,
    documented: true,
    access: main.access,
  };
}

type Read = (part: string, onBatch: (records: DataRecord[]) => void | Promise<void>) => Promise<{ bytes: number; count: number }>;

/**
 * Key (lower case) -> what to show, per resolution. A list shown by one property is folded batch by batch
 * (the controls of a big environment are not held); a tree is held whole to walk it.
 */
async function readLookups(register: RegisterDefinition, read: Read, readAll: (part: string) => Promise<DataRecord[]>): Promise<Map<Resolution, Map<string, string>>> {
  const byList = new Map<string, Resolution[]>();
  for (const r of register.resolve) byList.set(r.list, [...(byList.get(r.list) ?? []), r]);
  const lookups = new Map<Resolution, Map<string, string>>();
  await Promise.all(
    [...byList].map(async ([list, resolutions]) => {
      if (resolutions.some((r) => typeof r.show !== 'string')) {
        const all = await readAll(list);
        for (const r of resolutions) lookups.set(r, typeof r.show === 'string' ? namesOf(r, r.show, all, new Map()) : pathsOf(r, r.show, all));
        return;
      }
      const maps = resolutions.map(() => new Map<string, string>());
      await read(list, (records) => resolutions.forEach((r, i) => namesOf(r, r.show as string, records, maps[i]!)));
      resolutions.forEach((r, i) => lookups.set(r, maps[i]!));
    }),
  );
  return lookups;
}

function namesOf(r: Resolution, show: string, records: readonly DataRecord[], into: Map<string, string>): Map<string, string> {
  for (const x of records) if (typeof x[r.key] === 'string' && x[show] != null) into.set((x[r.key] as string).toLowerCase(), String(x[show]));
  return into;
}

function pathsOf(r: Resolution, show: Exclude<Resolution['show'], string>, list: readonly DataRecord[]): Map<string, string> {
  const out = new Map<string, string>();
  const { path: label, parent } = show;
  const byGuid = new Map(list.map((x) => [String(x.GUID ?? x.Id ?? '').toLowerCase(), x]));
  const pathOf = (x: DataRecord): string => {
    const names: string[] = [];
    const seen = new Set<DataRecord>();
    for (let at: DataRecord | undefined = x; at && !seen.has(at); at = typeof at[parent] === 'string' ? byGuid.get((at[parent] as string).toLowerCase()) : undefined) {
      seen.add(at);
      names.unshift(String(at[label] ?? ''));
    }
    return names.join(' > ');
  };
  for (const x of list) {
    const key = x[r.key];
    if (typeof key === 'string' && !out.has(key.toLowerCase())) out.set(key.toLowerCase(), pathOf(x));
  }
  return out;
}

/** Per record (owner GUID, lower case): its custom field values, by position in `custom`. */
async function readValues(register: RegisterDefinition, custom: readonly CustomColumn[], read: Read): Promise<Map<string, unknown[]>> {
  const values = new Map<string, unknown[]>();
  const width = custom.length;
  // Values come grouped by record (a record's pairs, or its rows one after another): the last record's
  // row is kept at hand, so 2,000,000 values cost 100,000 look-ups, not 2,000,000.
  let lastOwner: string | null = null;
  let lastRow: unknown[] = [];
  const put = (owner: unknown, at: number | undefined, raw: unknown) => {
    if (at === undefined || typeof owner !== 'string' || raw === null || raw === undefined) return;
    let row = lastRow;
    if (owner !== lastOwner) {
      const key = owner.toLowerCase();
      row = values.get(key) ?? [];
      if (!row.length) values.set(key, (row = new Array<unknown>(width)));
      lastOwner = owner;
      lastRow = row;
    }
    const c = custom[at]!;
    const v = c.typed(raw);
    if (c.multi) ((row[at] ??= []) as unknown[]).push(v);
    // A single-value field with two values (the service should not send that): both kept, as text.
    else row[at] = row[at] === undefined ? v : `${String(row[at])}; ${String(v)}`;
  };
  for (const set of register.fields) {
    const at = new Map<string, number>();
    custom.forEach((c, i) => {
      if (c.set === set) at.set(set.shape === 'pairs' ? c.definitionName : c.id, i);
    });
    await read(set.values, (records) => {
      for (const rec of records) {
        if (set.shape === 'pairs') {
          const pairs = rec.CustomFields;
          if (Array.isArray(pairs)) for (const p of pairs as { Name?: unknown; Value?: unknown }[]) put(rec[set.owner], at.get(String(p?.Name)), p?.Value);
        } else {
          const field = String(rec.CustomFieldId);
          put(rec[set.owner], at.get(field) ?? at.get(field.toLowerCase()), rec.Value);
        }
      }
    });
  }
  return values;
}

/** A main record as a register record: its fields, the names for its GUIDs, its custom fields, its GUIDs. */
function joiner(
  plain: readonly string[],
  guids: readonly string[],
  resolve: readonly Resolution[],
  lookups: Map<Resolution, Map<string, string>>,
  custom: readonly CustomColumn[],
  values: Map<string, unknown[]>,
): (rec: DataRecord) => DataRecord {
  const names = custom.map((c) => c.name);
  const resolved = resolve.map((r) => ({ r, map: lookups.get(r)! }));
  const show = (map: Map<string, string>, v: unknown) => (typeof v === 'string' ? (map.get(v.toLowerCase()) ?? v) : v);
  return (rec) => {
    const out: DataRecord = {};
    for (const f of plain) out[f] = rec[f];
    for (const { r, map } of resolved) {
      const v = rec[r.field];
      const shown = Array.isArray(v) ? v.map((x) => show(map, x)) : v === null || v === undefined ? null : show(map, v);
      out[r.byName ? r.field : r.column] = shown;
    }
    const row = typeof rec.Id === 'string' ? values.get(rec.Id.toLowerCase()) : undefined;
    for (let i = 0; i < names.length; i++) out[names[i]!] = row?.[i] ?? null;
    for (const f of guids) out[f] = rec[f];
    // Fields the service sends and the catalogue does not know: kept, at the end, as for the plain dataset.
    for (const k in rec) if (!(k in out)) out[k] = rec[k];
    return out;
  };
}

/** A refusal or failure of one of the register's datasets, saying which one. */
function refusalNaming(e: unknown, register: RegisterDefinition, part: Dataset): unknown {
  if (!isApiError(e) || e.code === 'cancelled') return e;
  const naming = `The ${register.title} reads the dataset ${part.title} (${part.id}), and reading it failed: `;
  return new ApiError({
    code: e.code,
    sent: e.sent,
    endpoint: part.id,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.details ? { details: e.details } : {}),
    message: `${naming}${e.message}`,
    ...(e.relay ? { relay: { ...e.relay, sentence: `${naming}${e.relay.sentence}` } } : {}),
    cause: e,
  });
}
