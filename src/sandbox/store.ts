import type { Ctx, Rec, Table } from './data/context';
import { indexOf, type Kind } from './data/guids';
import { generate } from './data/tables';

/**
 * The sandbox's data: generated tables (computed on demand from the seed) under an overlay of what the
 * write operations changed (patches by GUID) and added (new records). Datasets read through the overlay,
 * so whatever is written shows up in the DirectData datasets afterwards.
 */
export interface HistoryEntry {
  at: string;
  by: string;
  action: string;
}
export interface Attachment {
  Id: string;
  FileName?: string;
  Size?: number;
  Url?: string;
  Description?: string;
  HyperlinkTypeGuid?: string;
}
/** What the service keeps about an incident beyond its read shape. */
export interface IncidentExtra {
  documents: Attachment[];
  hyperlinks: Attachment[];
  history: HistoryEntry[];
}

/** The GUID kind of each dataset whose records can be looked up by GUID. */
const KIND_OF: Record<string, Kind> = {
  incidents: 'incident',
  tasks: 'task',
  controltestplan: 'testPlan',
  control: 'control',
  thirdparty: 'thirdParty',
  thirdpartycontract: 'contract',
  risk: 'risk',
};

/** A write as it arrived, in the caller's (the customer file's) shape, once the sandbox accepted it. */
export interface Received {
  endpoint: string;
  method: string;
  /** The request path below the API root. */
  path: string;
  /** The query string, without its `?` ('' when none). */
  query: string;
  body: unknown;
  /** The record it made or changed. */
  id?: string;
}

export class Store {
  readonly ctx: Ctx;
  /** Accepted writes, oldest first: what a test checks a value arrived as, where the file wants it. */
  readonly received: Received[] = [];
  private readonly tables: Record<string, Table>;
  private readonly patches = new Map<string, Map<string, Rec>>();
  private readonly added = new Map<string, Rec[]>();
  private readonly addedById = new Map<string, Map<string, Rec>>();
  private readonly extras = new Map<string, IncidentExtra>();
  private readonly created = new Map<Kind, number>();
  /** Per dataset, rewrites applied to every record read (null drops it): custom fields added or removed by the admin. */
  private readonly rewrites = new Map<string, ((rec: Rec) => Rec | null)[]>();
  /** Forms closed through the admin route; standing data itself is shared and never changed. */
  readonly closedForms = new Set<string>();

  constructor(seed: number, scale: number) {
    const g = generate(seed, scale);
    this.ctx = g.ctx;
    this.tables = g.tables;
  }

  has(datasetId: string): boolean {
    return datasetId in this.tables;
  }

  count(datasetId: string): number {
    // Rewrites may drop records: count what a read gives (only after an admin changed custom fields).
    if (this.rewrites.has(datasetId)) {
      let n = 0;
      for (const _ of this.records(datasetId)) n++;
      return n;
    }
    return (this.tables[datasetId]?.count ?? 0) + (this.added.get(datasetId)?.length ?? 0);
  }

  /** From now on every record of the dataset reads through `fn` (null: the record is gone). */
  rewrite(datasetId: string, fn: (rec: Rec) => Rec | null): void {
    const list = this.rewrites.get(datasetId) ?? [];
    list.push(fn);
    this.rewrites.set(datasetId, list);
  }

  counts(): Record<string, number> {
    return Object.fromEntries(Object.keys(this.tables).map((id) => [id, this.count(id)]));
  }

  /** Every record of a dataset, generated ones first (with their patches), then the added ones. */
  *records(datasetId: string): Generator<Rec> {
    const fns = this.rewrites.get(datasetId);
    if (!fns) return yield* this.stored(datasetId);
    outer: for (let rec of this.stored(datasetId)) {
      for (const fn of fns) {
        const next = fn(rec);
        if (!next) continue outer;
        rec = next;
      }
      yield rec;
    }
  }

  private *stored(datasetId: string): Generator<Rec> {
    const t = this.tables[datasetId];
    if (!t) throw new Error(`no generated dataset "${datasetId}"`);
    const patches = this.patches.get(datasetId);
    for (let i = 0; i < t.count; i++) {
      const rec = t.at(i);
      const patch = patches?.size ? patches.get(rec.Id as string) : undefined;
      yield patch ? { ...rec, ...patch } : rec;
    }
    yield* this.added.get(datasetId) ?? [];
  }

  /** A record by GUID, with its changes, or undefined. */
  find(datasetId: string, guid: string): Rec | undefined {
    const lower = guid.toLowerCase();
    const added = this.addedById.get(datasetId)?.get(lower);
    if (added) return added;
    const kind = KIND_OF[datasetId];
    const t = this.tables[datasetId];
    if (!kind || !t) return undefined;
    const index = indexOf(this.ctx.seed, kind, lower);
    if (index === null || index >= t.count) return undefined;
    const patch = this.patches.get(datasetId)?.get(lower);
    return patch ? { ...t.at(index), ...patch } : t.at(index);
  }

  /** Changes fields of an existing record (generated or added). */
  patch(datasetId: string, guid: string, changes: Rec): void {
    const lower = guid.toLowerCase();
    const added = this.addedById.get(datasetId)?.get(lower);
    if (added) {
      Object.assign(added, changes);
      return;
    }
    let m = this.patches.get(datasetId);
    if (!m) this.patches.set(datasetId, (m = new Map()));
    m.set(lower, { ...m.get(lower), ...changes });
  }

  add(datasetId: string, rec: Rec): void {
    let list = this.added.get(datasetId);
    if (!list) this.added.set(datasetId, (list = []));
    list.push(rec);
    if (typeof rec.Id === 'string') {
      let byId = this.addedById.get(datasetId);
      if (!byId) this.addedById.set(datasetId, (byId = new Map()));
      byId.set(rec.Id.toLowerCase(), rec);
    }
  }

  /**
   * The index for a new record of a kind: after the generated ones, so new GUIDs follow the same scheme,
   * never collide and come out the same in every run with the same seed and the same writes.
   */
  nextIndex(kind: Kind, generatedCount: number): number {
    const n = this.created.get(kind) ?? 0;
    this.created.set(kind, n + 1);
    return generatedCount + n;
  }

  /** Generated record i of a dataset, without changes (for datasets that line up with another one by index). */
  generated(datasetId: string, index: number): Rec | undefined {
    const t = this.tables[datasetId];
    return t && index < t.count ? t.at(index) : undefined;
  }

  /** Added records of a dataset (what the writes created). */
  addedRecords(datasetId: string): readonly Rec[] {
    return this.added.get(datasetId) ?? [];
  }

  /** A small standing dataset as a list, with its changes (incident types, custom field definitions). */
  list<T>(datasetId: string): T[] {
    return [...this.records(datasetId)] as T[];
  }

  generatedCount(datasetId: string): number {
    return this.tables[datasetId]?.count ?? 0;
  }

  incidentExtra(guid: string): IncidentExtra {
    const lower = guid.toLowerCase();
    let e = this.extras.get(lower);
    if (!e) this.extras.set(lower, (e = { documents: [], hyperlinks: [], history: [] }));
    return e;
  }
}
