import { z } from 'zod';
import type { Rec } from './data/context';
import { chosenOptions } from './data/field-values';
import { guidOf, indexOf, type Kind } from './data/guids';
import { fieldValue } from './data/risks';
import type { FieldDefinition, IncidentTypeField } from './data/standing';
import type { ConfigResult } from './configuration';
import type { Store } from './store';

/**
 * Adding and removing a custom field, as an administrator does in the service's UI: the sandbox offers it
 * as admin routes so a test can change the fields between two refreshes of a register. An added visible
 * field gets a value for every record of its area (one row per chosen option for a multi-select); a
 * removed field leaves its definitions dataset and every value of it leaves the values dataset.
 */
interface FieldArea {
  /** The definitions dataset, and the values dataset with the property naming the owner record. */
  definitions: string;
  values: string;
  owner: string;
  /** The owners: the main dataset's records and their GUID kind. */
  main: string;
  kind: Kind;
  /** Risks: one record per risk with name/value pairs; the others: one row per owner, field and value. */
  pairs?: true;
}

const AREAS: readonly FieldArea[] = [
  // The service names the risk datasets the other way round: riskcustomfieldvalues holds the definitions.
  { definitions: 'riskcustomfieldvalues', values: 'riskcustomfields', owner: 'RiskGuid', main: 'risk', kind: 'risk', pairs: true },
  { definitions: 'controlcustomfields', values: 'controlcustomfieldvalues', owner: 'ControlGuid', main: 'control', kind: 'control' },
  { definitions: 'thirdpartycustomfields', values: 'thirdpartycustomfieldvalues', owner: 'ThirdPartyGuid', main: 'thirdparty', kind: 'thirdParty' },
  { definitions: 'thirdpartycontractcustomfields', values: 'thirdpartycontractcustomfieldvalues', owner: 'ContractGuid', main: 'thirdpartycontract', kind: 'contract' },
  { definitions: 'auditcontextcustomfields', values: 'auditcontextcustomfieldvalues', owner: 'AuditGuid', main: 'audit', kind: 'audit' },
  { definitions: 'auditriskassessmentcustomfields', values: 'auditriskassessmentcustomfieldvalues', owner: 'AuditGuid', main: 'audit', kind: 'audit' },
  { definitions: 'incidenttypecustomfields', values: 'incidenttypecustomfieldvalues', owner: 'IncidentId', main: 'incidents', kind: 'incident' },
];

/** Where an admin-added field's GUID and random stream start: far past the generated standing data. */
const ADDED_BASE = 1_000_000;

export const newFieldBody = z.strictObject({
  Name: z.string().trim().min(1),
  Type: z.enum(['Text', 'Number', 'Date', 'Checkbox', 'Dropdown', 'MultiSelect']),
  Required: z.boolean().default(false),
  Visible: z.boolean().default(true),
  /** Answer option names (Dropdown and MultiSelect). */
  Options: z.array(z.string().min(1)).default([]),
  /** Incident type custom fields belong to one incident type. */
  IncidentTypeId: z.string().optional(),
});
export type NewField = z.infer<typeof newFieldBody>;

export function addCustomField(store: Store, definitions: string, input: NewField): ConfigResult & { Id?: string } {
  const area = AREAS.find((a) => a.definitions === definitions);
  if (!area) return { done: false, notFound: `No custom field definitions dataset "${definitions}"; one of: ${AREAS.map((a) => a.definitions).join(', ')}.` };
  if ((input.Type === 'Dropdown' || input.Type === 'MultiSelect') && input.Options.length < 2)
    return { done: false, Warning: `A ${input.Type} field needs at least two answer options.` };
  if (store.list<FieldDefinition>(definitions).some((f) => f.Name === input.Name))
    return { done: false, Warning: `A custom field named "${input.Name}" exists already.` };
  const type = area.kind === 'incident' ? store.list<{ Id: string; Name: string }>('incidenttypes').find((t) => t.Id === input.IncidentTypeId?.toLowerCase()) : undefined;
  if (area.kind === 'incident' && !type) return { done: false, notFound: `An incident type custom field needs the IncidentTypeId of an incident type.` };
  const n = store.nextIndex('standing', ADDED_BASE);
  const id = () => guidOf(store.ctx.seed, 'standing', store.nextIndex('standing', ADDED_BASE));
  const field: FieldDefinition = {
    Id: guidOf(store.ctx.seed, 'standing', n),
    Name: input.Name,
    Type: input.Type,
    Required: input.Required,
    Visible: input.Visible,
    AnswerOptions: input.Options.map((Name, i) => ({ Id: id(), Name, Value: String(i + 1), Colour: '#1565c0' })),
  };
  store.add(definitions, type ? ({ ...field, IncidentTypeId: type.Id } satisfies IncidentTypeField) : { ...field });
  // Values datasets carry visible populated fields only.
  if (!field.Visible) return { done: true, Id: field.Id };
  const valuesOf = (owner: string): string[] => {
    const r = store.ctx.rng(area.kind, indexOf(store.ctx.seed, area.kind, owner) ?? 0, n);
    return field.Type === 'MultiSelect' ? chosenOptions(field, r) : [fieldValue(field, r)];
  };
  if (area.pairs) {
    pairsOf(store, area).added.push({ name: field.Name, valuesOf });
    return { done: true, Id: field.Id };
  }
  for (const owner of store.records(area.main)) {
    if (type && !(owner.IncidentTypes as string[]).includes(type.Name)) continue;
    for (const Value of valuesOf(owner.Id as string)) store.add(area.values, { [area.owner]: owner.Id, CustomFieldId: field.Id, Value });
  }
  return { done: true, Id: field.Id };
}

/**
 * The changes to a name/value pairs dataset: one rewrite per store and dataset, whatever the number of
 * fields added or removed, so a sandbox of 100,000 risks with twenty added fields still answers quickly
 * (the register benchmark's setup).
 */
interface PairChanges {
  added: { name: string; valuesOf(owner: string): string[] }[];
  removed: Set<string>;
}
const pairChanges = new WeakMap<Store, Map<string, PairChanges>>();

function pairsOf(store: Store, area: FieldArea): PairChanges {
  let byDataset = pairChanges.get(store);
  if (!byDataset) pairChanges.set(store, (byDataset = new Map()));
  let changes = byDataset.get(area.values);
  if (!changes) {
    const c: PairChanges = { added: [], removed: new Set() };
    byDataset.set(area.values, (changes = c));
    store.rewrite(area.values, (rec) => {
      const owner = rec[area.owner] as string;
      const kept = (rec.CustomFields as Rec[]).filter((x) => !c.removed.has(x.Name as string));
      for (const a of c.added) for (const Value of a.valuesOf(owner)) kept.push({ Name: a.name, Value });
      return { ...rec, CustomFields: kept };
    });
  }
  return changes;
}

export function removeCustomField(store: Store, guid: string): ConfigResult {
  const lower = guid.toLowerCase();
  for (const area of AREAS) {
    const field = store.list<FieldDefinition>(area.definitions).find((f) => f.Id === lower);
    if (!field) continue;
    store.rewrite(area.definitions, (rec) => (rec.Id === lower ? null : rec));
    if (area.pairs) {
      const pairs = pairsOf(store, area);
      pairs.added = pairs.added.filter((a) => a.name !== field.Name);
      pairs.removed.add(field.Name);
    } else {
      store.rewrite(area.values, (rec) => (rec.CustomFieldId === lower ? null : rec));
    }
    return { done: true };
  }
  return { done: false, notFound: `No custom field with GUID ${guid}.` };
}
