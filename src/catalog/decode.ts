import { parseDate } from './date-pattern';
import { isFilePart } from './form';
import { getAt, pointerParts } from './pointer';
import { DEFAULT_SEPARATOR, type BoundDataset, type Encoding, type Lists } from './placement';

/**
 * A dataset's records as the customer's file has them -> catalogue-shaped records (the reverse of the
 * placements' encodings). Properties no placement reads are kept under their own names, so nothing the
 * service sends is hidden. Pure.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const DURATION: Record<string, string> = { Y: 'Years', M: 'Months', W: 'Weeks', D: 'Days' };

function decodeValue(e: Encoding, v: unknown, lists: Lists, unitOut: (unit: string) => void): unknown {
  if (v === undefined || v === null) return v;
  // The file's array of one for the catalogue's one value.
  if ('single' in e && e.single && Array.isArray(v)) return decodeValue({ ...e, single: false }, v[0], lists, unitOut);
  const many = (f: (x: unknown) => unknown) => (Array.isArray(v) ? v.map(f) : f(v));
  switch (e.kind) {
    case 'plain':
      return v;
    case 'date':
      return e.pattern && typeof v === 'string' ? (parseDate(v, e.pattern) ?? v) : v;
    case 'file':
      // The file's name goes back to the catalogue's name field, its content stays base64.
      if (!isFilePart(v)) return v;
      unitOut(v.filename);
      return v.base64;
    case 'guid':
      return many((x) =>
        e.value === 'name' && typeof x === 'string' && e.list ? (lists[e.list]?.nameOf(x) ?? x) : x,
      );
    case 'ref':
      return many((x) => {
        if (!isObj(x)) return x;
        const id = e.idAt !== undefined ? getAt(x, e.idAt) : undefined;
        const name = e.nameAt !== undefined ? getAt(x, e.nameAt) : undefined;
        if (e.value === 'guid') return id ?? name;
        const known = typeof id === 'string' && e.list ? lists[e.list]?.nameOf(id) : undefined;
        return name ?? known ?? id;
      });
    case 'enum': {
      // The file's value (a number too: Swashbuckle's 3) -> the catalogue's value or the file's name for it.
      const back = new Map(Object.entries(e.map).map(([k, w]) => [w, k]));
      return many((x) => (typeof x === 'string' || typeof x === 'number' ? (back.get(String(x)) ?? x) : x));
    }
    case 'number-unit': {
      const back = new Map(Object.entries(e.units).map(([k, w]) => [w, k]));
      const unit = (u: unknown) => {
        if (typeof u === 'string' || typeof u === 'number') unitOut(back.get(String(u)) ?? String(u));
      };
      if (e.style === 'object' && isObj(v)) {
        unit(getAt(v, e.unitAt ?? '/unit'));
        return getAt(v, e.valueAt ?? '/value');
      }
      if (typeof v !== 'string') return v;
      if (e.style === 'iso-duration') {
        const m = /^P(\d+(?:\.\d+)?)([YMWD])$/i.exec(v.trim());
        if (!m) return v;
        const letter = m[2]!.toUpperCase();
        unit([...back.keys()].find((w) => w.toUpperCase() === letter) ?? DURATION[letter]!);
        return Number(m[1]);
      }
      const m = /^\s*(-?\d+(?:\.\d+)?)\s*(.*?)\s*$/.exec(v);
      // A unit without a number ("None"): no notice period, that unit.
      if (!m) {
        if (v.trim()) unit(v.trim());
        return null;
      }
      if (m[2]) unit(m[2]);
      return Number(m[1]);
    }
    case 'custom-fields':
      return customFieldAnswers(e, v);
    case 'objects':
      return many((x) => {
        if (!isObj(x) && !e.fields.some((f) => f.at === '')) return x;
        const out: Json = {};
        for (const f of e.fields) {
          const got = getAt(x, f.at);
          if (got !== undefined) out[f.field] = decodeValue(f.encoding, got, lists, () => undefined);
        }
        return out;
      });
  }
}

/**
 * Custom field answers in the file's shape -> the catalogue's entries, one per value: a list or a joined
 * text of several options becomes one entry per option, a date in the file's pattern an ISO date.
 */
function customFieldAnswers(e: Extract<Encoding, { kind: 'custom-fields' }>, v: unknown): unknown {
  const values = (x: unknown): unknown[] => {
    if (Array.isArray(x)) return x;
    if (e.multi === 'join' && typeof x === 'string') {
      const sep = (e.separator ?? DEFAULT_SEPARATOR).trim() || (e.separator ?? DEFAULT_SEPARATOR);
      return x.split(sep).map((s) => s.trim());
    }
    return [x];
  };
  const date = (x: unknown) => (e.datePattern && typeof x === 'string' ? (parseDate(x, e.datePattern) ?? x) : x);
  if (e.style === 'map')
    return isObj(v) ? Object.entries(v).flatMap(([g, x]) => values(x).map((one) => ({ CustomFieldGuid: g, Value: date(one) }))) : v;
  if (!Array.isArray(v)) return v;
  return v.flatMap((entry) => {
    if (!isObj(entry)) return [entry];
    const guid = getAt(entry, e.guidAt ?? '/CustomFieldGuid');
    const dated = e.dateAt !== undefined ? getAt(entry, e.dateAt) : undefined;
    if (dated !== undefined && dated !== null) return [{ CustomFieldGuid: guid, DateValue: date(dated) }];
    return values(getAt(entry, e.valueAt ?? '/Value')).map((one) => ({ CustomFieldGuid: guid, Value: date(one) }));
  });
}

/**
 * A record reader for one bound dataset, made once per download. The common case (every field a plain
 * top-level property: a file that only renames) is a loop over precomputed pairs; parsing pointers per
 * record costs more than parsing the JSON on a 200,000-record dataset.
 */
export function recordDecoder(ds: BoundDataset, lists: Lists = {}): (record: unknown) => Json {
  const body = ds.placements.filter((p) => p.in === 'body');
  const top = new Set(body.map((p) => pointerParts(p.at)[0]).filter((s): s is string => s !== undefined));
  const simple = body.every((p) => p.encoding.kind === 'plain' && pointerParts(p.at).length === 1);
  if (simple) {
    const fields = body.map((p) => p.field);
    const keys = body.map((p) => pointerParts(p.at)[0]!);
    const n = fields.length;
    return (r) => {
      const out: Json = {};
      if (!isObj(r)) return out;
      for (const k in r) if (!top.has(k) && Object.hasOwn(r, k)) out[k] = r[k];
      for (let i = 0; i < n; i++) {
        const v = r[keys[i]!];
        if (v !== undefined) out[fields[i]!] = v;
      }
      return out;
    };
  }
  return (r) => {
    const out: Json = {};
    if (!isObj(r)) return out;
    for (const k in r) if (!top.has(k) && Object.hasOwn(r, k)) out[k] = r[k];
    for (const p of body) {
      const v = getAt(r, p.at);
      if (v === undefined) continue;
      const unitField =
        p.encoding.kind === 'number-unit' ? p.encoding.unitField : p.encoding.kind === 'file' ? p.encoding.nameField : undefined;
      out[p.field] = decodeValue(p.encoding, v, lists, (u) => {
        if (unitField) out[unitField] = u;
      });
    }
    return out;
  };
}

export function decodeRecord(ds: BoundDataset, record: unknown, lists: Lists = {}): Json {
  return recordDecoder(ds, lists)(record);
}

/** The array of records in a dataset's answer, through its envelope; undefined when it is not there. */
export function recordsOf(ds: Pick<BoundDataset, 'records'>, answerBody: unknown): unknown[] | undefined {
  const at = getAt(answerBody, ds.records);
  return Array.isArray(at) ? at : undefined;
}
