import type { DataRecord } from '../../src/client';
import { catalog } from '../../src/catalog';
import { headerWords, isoToSerial, type Cell } from '../../src/sheet';

/**
 * What a register's table must hold, computed from the raw datasets the sandbox serves, independently of
 * src/register: the columns in order, the format of each added column, and per record (by Id) the cells
 * of its custom fields and resolved names.
 */
export interface Expected {
  columns: string[];
  formats: Record<string, string>;
  rows: Map<string, Record<string, Cell>>;
  /** Things that must be true of this register's data for the test to mean something. */
  samples: boolean[];
  /** Names of the invisible custom fields (shown only when asked). */
  invisible: string[];
}

interface Set {
  defs: string;
  values: string;
  owner: string;
  pairs?: true;
}
type Resolved = [column: string, field: string, list: 'tree' | 'risk' | 'control' | 'thirdparty'];
interface Area {
  main: string;
  sets: Set[];
  resolved: Resolved[];
  guids: string[];
  /** A name field shown as its path in the root cause tree. */
  inPlace?: string;
}

const AREAS: Record<string, Area> = {
  risks: {
    main: 'risk',
    sets: [{ defs: 'riskcustomfieldvalues', values: 'riskcustomfields', owner: 'RiskGuid', pairs: true }],
    resolved: [['RootCauseCategories', 'RootCauseCategoryGuids', 'tree'], ['Controls', 'ControlGuids', 'control']],
    guids: ['Id', 'RootCauseCategoryGuids', 'ControlGuids'],
  },
  incidents: {
    main: 'incidents',
    sets: [{ defs: 'incidenttypecustomfields', values: 'incidenttypecustomfieldvalues', owner: 'IncidentId' }],
    resolved: [['Risks', 'RiskGuids', 'risk'], ['Controls', 'ControlGuids', 'control']],
    guids: ['Id', 'MoiGuids', 'RiskGuids', 'ControlGuids'],
    inPlace: 'RootCauseCategory',
  },
  thirdparties: { main: 'thirdparty', sets: [{ defs: 'thirdpartycustomfields', values: 'thirdpartycustomfieldvalues', owner: 'ThirdPartyGuid' }], resolved: [], guids: ['Id'] },
  contracts: {
    main: 'thirdpartycontract',
    sets: [{ defs: 'thirdpartycontractcustomfields', values: 'thirdpartycontractcustomfieldvalues', owner: 'ContractGuid' }],
    resolved: [['ThirdParty', 'ThirdPartyGuid', 'thirdparty']],
    guids: ['Id', 'ThirdPartyGuid'],
  },
  controls: { main: 'control', sets: [{ defs: 'controlcustomfields', values: 'controlcustomfieldvalues', owner: 'ControlGuid' }], resolved: [['Risks', 'RiskGuids', 'risk']], guids: ['Id', 'RiskGuids'] },
  audits: {
    main: 'audit',
    sets: [
      { defs: 'auditcontextcustomfields', values: 'auditcontextcustomfieldvalues', owner: 'AuditGuid' },
      { defs: 'auditriskassessmentcustomfields', values: 'auditriskassessmentcustomfieldvalues', owner: 'AuditGuid' },
    ],
    resolved: [['ThirdParties', 'ThirdPartyGuids', 'thirdparty'], ['Risks', 'RiskGuids', 'risk'], ['Controls', 'ControlGuids', 'control']],
    guids: ['Id', 'ThirdPartyGuids', 'RiskGuids', 'ControlGuids'],
  },
};

const FORMAT: Record<string, string> = { Number: 'number', Date: 'date', Checkbox: 'boolean' };

function cellOf(type: string, values: string[]): Cell {
  if (!values.length) return null;
  if (type === 'MultiSelect') return values.join('; ');
  const v = values[0]!;
  if (type === 'Number') return Number(v);
  if (type === 'Checkbox') return v === 'true';
  if (type === 'Date') return isoToSerial(v);
  return v;
}

export async function expectedRegister(area: string, raw: (id: string) => Promise<DataRecord[]>, options: { invisible: boolean }): Promise<Expected> {
  const a = AREAS[area]!;
  const main = await raw(a.main);
  const known = Object.keys(catalog.dataset(a.main).record.shape);
  const extra = [...new Set(main.flatMap((r) => Object.keys(r).filter((k) => !known.includes(k) && r[k] !== null)))];
  const plain = known.filter((k) => !a.guids.includes(k));

  // Names for GUIDs: identifiers of risks and controls, names of third parties, paths in the root cause tree.
  const tree = await raw('riskrootcausecategory');
  const byGuid = new Map(tree.map((c) => [c.GUID as string, c]));
  const pathOf = (c: DataRecord): string => (c.ParentGUID ? `${pathOf(byGuid.get(c.ParentGUID as string)!)} > ${c.Name as string}` : (c.Name as string));
  const labels: Record<string, Map<string, string>> = {
    tree: new Map(tree.map((c) => [c.GUID as string, pathOf(c)])),
    risk: new Map((await raw('risk')).map((r) => [r.Id as string, r.Identifier as string])),
    control: new Map((await raw('control')).map((r) => [r.Id as string, r.Identifier as string])),
    thirdparty: new Map((await raw('thirdparty')).map((r) => [r.Id as string, r.Name as string])),
  };
  const byName = new Map(tree.map((c) => [c.Name as string, pathOf(c)]));

  const custom: { name: string; type: string; values: Map<string, string[]> }[] = [];
  const invisible: string[] = [];
  for (const set of a.sets) {
    const defs = await raw(set.defs);
    const values = await raw(set.values);
    for (const d of defs) {
      if (d.Visible === false) invisible.push(d.Name as string);
      if (d.Visible === false && !options.invisible) continue;
      const byOwner = new Map<string, string[]>();
      const add = (owner: string, v: string) => byOwner.set(owner, [...(byOwner.get(owner) ?? []), v]);
      for (const v of values) {
        if (set.pairs) {
          for (const p of v.CustomFields as { Name: string; Value: string }[]) if (p.Name === d.Name) add(v[set.owner] as string, p.Value);
        } else if (v.CustomFieldId === d.Id) {
          add(v[set.owner] as string, v.Value as string);
        }
      }
      custom.push({ name: d.Name as string, type: d.Type as string, values: byOwner });
    }
  }

  const rows = new Map<string, Record<string, Cell>>();
  for (const r of main) {
    const cells: Record<string, Cell> = {};
    for (const [column, field, list] of a.resolved) {
      const v = r[field];
      // An empty list is an empty text cell, as in the plain dataset's list columns.
      cells[column] = Array.isArray(v) ? v.map((g) => labels[list]!.get(g as string)!).join('; ') : v ? labels[list]!.get(v as string)! : null;
    }
    if (a.inPlace) cells[a.inPlace] = byName.get(r[a.inPlace] as string)!;
    for (const c of custom) cells[c.name] = cellOf(c.type, c.values.get(r.Id as string) ?? []);
    for (const g of a.guids) cells[g] = Array.isArray(r[g]) ? (r[g] as string[]).join('; ') : ((r[g] as string | null) ?? null);
    rows.set(r.Id as string, cells);
  }
  const resolvedCells = [...rows.values()].flatMap((c) => a.resolved.map(([column]) => c[column]));
  return {
    columns: [...plain, ...a.resolved.map(([c]) => c), ...custom.map((c) => c.name), ...a.guids, ...extra],
    formats: Object.fromEntries([...a.resolved.map(([c]) => [c, 'text']), ...custom.map((c) => [c.name, FORMAT[c.type] ?? 'text'])]),
    rows,
    samples: [
      // Custom values arrived, and no resolved name is left a GUID.
      [...rows.values()].some((c) => custom.some((f) => c[f.name] !== null)),
      resolvedCells.every((v) => v === null || !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(String(v))),
      a.resolved.length === 0 || resolvedCells.some((v) => v !== null && v !== ''),
    ],
    invisible,
  };
}

/** The sandbox's admin routes that add and remove a custom field (docs/sandbox.md). */
export function sandboxAdmin(apiUrl: string) {
  const base = apiUrl.replace(/\/api$/, '');
  return {
    async addField(definitions: string, field: Record<string, unknown>): Promise<string> {
      const res = await fetch(`${base}/_sandbox/customfields/${definitions}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(field) });
      const body = (await res.json()) as { Id?: string };
      if (res.status !== 201 || !body.Id) throw new Error(`adding ${JSON.stringify(field)}: ${res.status} ${JSON.stringify(body)}`);
      return body.Id;
    },
    async removeField(guid: string): Promise<void> {
      const res = await fetch(`${base}/_sandbox/customfields/${guid}`, { method: 'DELETE' });
      if (res.status !== 200) throw new Error(`removing ${guid}: ${res.status} ${await res.text()}`);
    },
  };
}

/** A report leads with these; the register's own order already puts its GUID columns after its other fields. */
const LEADING = ['Identifier', 'Name'];

/**
 * An expectation made in the record's field names, as a new load shows it (src/sheet/headers.ts): headers
 * in words, Identifier and Name first, yes/no as "Yes"/"No" in text columns. Rows stay keyed by the record's GUID.
 */
export function inWords(want: Expected): Expected {
  const order = [...LEADING.filter((f) => want.columns.includes(f)), ...want.columns.filter((f) => !LEADING.includes(f))];
  const yesNo = (v: Cell): Cell => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : v);
  return {
    ...want,
    columns: order.map(headerWords),
    formats: Object.fromEntries(Object.entries(want.formats).map(([f, format]) => [headerWords(f), format === 'boolean' ? 'text' : format])),
    rows: new Map([...want.rows].map(([id, cells]) => [id, Object.fromEntries(Object.entries(cells).map(([f, v]) => [headerWords(f), yesNo(v)]))])),
  };
}
