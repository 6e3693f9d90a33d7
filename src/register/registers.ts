import type { Area, DatasetId } from '../catalog';

/**
 * The registers: per area, the main dataset joined with its custom field values and with names for its
 * GUIDs. A register is not an API endpoint (nothing here is a path): it is read by reading its datasets
 * through the same client, so the relay's policy applies to each of them.
 */

/** One set of custom fields: its definitions dataset and its values dataset. */
export interface FieldSet {
  definitions: DatasetId;
  values: DatasetId;
  /** The property of a value naming its record. */
  owner: string;
  /**
   * `pairs`: one value record per owner with name/value pairs in `CustomFields` (risks);
   * `rows`: one value record per owner, field and value, naming the field by `CustomFieldId`.
   */
  shape: 'pairs' | 'rows';
  /** Said after a field's name when two sets (or a set and the main dataset) use the same name. */
  label: string;
}

/**
 * A GUID (or GUID list) field of the main dataset shown as names from a list dataset, in a column of its
 * own (the GUID column stays, last), or a name field shown as its place in a tree (`inPlace`).
 */
export interface Resolution {
  field: string;
  column: string;
  list: DatasetId;
  /** The list's key property (`Id`, or `GUID` for root cause categories). */
  key: string;
  /** The list's property to show; `path` shows "Parent > Child" along ParentGUID. */
  show: string | { path: 'Name'; parent: 'ParentGUID' };
  /** The field holds names, not GUIDs: resolve by name to the path, in the field itself. */
  byName?: true;
}

export interface RegisterDefinition {
  /** `register:<name>`: the dataset id the Datasets screen, the CLI and the table's binding use. */
  id: `register:${string}`;
  area: Area;
  title: string;
  description: string;
  main: DatasetId;
  fields: readonly FieldSet[];
  resolve: readonly Resolution[];
}

export const REGISTER_PREFIX = 'register:';
/** `register:risks+invisible`: the same register with the invisible custom fields as columns too. */
export const WITH_INVISIBLE = '+invisible';

const rootCausePath = { path: 'Name', parent: 'ParentGUID' } as const;
const identifiersOf = (field: string, column: string, list: 'risk' | 'control'): Resolution => ({ field, column, list, key: 'Id', show: 'Identifier' });

export const REGISTERS: readonly RegisterDefinition[] = [
  {
    id: 'register:risks',
    area: 'Risks',
    title: 'Risk register',
    description: 'Risks with their custom fields as columns, root cause categories as "Parent > Child" and linked controls by identifier.',
    main: 'risk',
    fields: [{ definitions: 'riskcustomfieldvalues', values: 'riskcustomfields', owner: 'RiskGuid', shape: 'pairs', label: 'custom field' }],
    resolve: [
      { field: 'RootCauseCategoryGuids', column: 'RootCauseCategories', list: 'riskrootcausecategory', key: 'GUID', show: rootCausePath },
      identifiersOf('ControlGuids', 'Controls', 'control'),
    ],
  },
  {
    id: 'register:incidents',
    area: 'Incidents',
    title: 'Incident register',
    description: 'Incidents with their incident type custom fields as columns, the root cause category as "Parent > Child" and linked risks and controls by identifier.',
    main: 'incidents',
    fields: [{ definitions: 'incidenttypecustomfields', values: 'incidenttypecustomfieldvalues', owner: 'IncidentId', shape: 'rows', label: 'custom field' }],
    resolve: [
      { field: 'RootCauseCategory', column: 'RootCauseCategory', list: 'riskrootcausecategory', key: 'Name', show: rootCausePath, byName: true },
      identifiersOf('RiskGuids', 'Risks', 'risk'),
      identifiersOf('ControlGuids', 'Controls', 'control'),
    ],
  },
  {
    id: 'register:thirdparties',
    area: 'Third parties',
    title: 'Third party register',
    description: 'Third parties with their custom fields as columns.',
    main: 'thirdparty',
    fields: [{ definitions: 'thirdpartycustomfields', values: 'thirdpartycustomfieldvalues', owner: 'ThirdPartyGuid', shape: 'rows', label: 'custom field' }],
    resolve: [],
  },
  {
    id: 'register:contracts',
    area: 'Third parties',
    title: 'Contract register',
    description: 'Third party contracts with their custom fields as columns and the third party by name.',
    main: 'thirdpartycontract',
    fields: [{ definitions: 'thirdpartycontractcustomfields', values: 'thirdpartycontractcustomfieldvalues', owner: 'ContractGuid', shape: 'rows', label: 'custom field' }],
    resolve: [{ field: 'ThirdPartyGuid', column: 'ThirdParty', list: 'thirdparty', key: 'Id', show: 'Name' }],
  },
  {
    id: 'register:controls',
    area: 'Controls',
    title: 'Control register',
    description: 'Controls with their custom fields as columns and linked risks by identifier.',
    main: 'control',
    fields: [{ definitions: 'controlcustomfields', values: 'controlcustomfieldvalues', owner: 'ControlGuid', shape: 'rows', label: 'custom field' }],
    resolve: [identifiersOf('RiskGuids', 'Risks', 'risk')],
  },
  {
    id: 'register:audits',
    area: 'Audits',
    title: 'Audit register',
    description: 'Audits with the audit context and audit risk assessment custom fields as columns, and linked third parties, risks and controls by name and identifier.',
    main: 'audit',
    fields: [
      { definitions: 'auditcontextcustomfields', values: 'auditcontextcustomfieldvalues', owner: 'AuditGuid', shape: 'rows', label: 'audit context' },
      { definitions: 'auditriskassessmentcustomfields', values: 'auditriskassessmentcustomfieldvalues', owner: 'AuditGuid', shape: 'rows', label: 'audit risk assessment' },
    ],
    resolve: [
      { field: 'ThirdPartyGuids', column: 'ThirdParties', list: 'thirdparty', key: 'Id', show: 'Name' },
      identifiersOf('RiskGuids', 'Risks', 'risk'),
      identifiersOf('ControlGuids', 'Controls', 'control'),
    ],
  },
];

export const isRegisterId = (id: string): boolean => id.startsWith(REGISTER_PREFIX);

/** The register an id names (with or without `+invisible`), and whether invisible fields are asked for. */
export function registerOf(id: string): { register: RegisterDefinition; invisible: boolean } | null {
  const invisible = id.endsWith(WITH_INVISIBLE);
  const base = invisible ? id.slice(0, -WITH_INVISIBLE.length) : id;
  const register = REGISTERS.find((r) => r.id === base);
  return register ? { register, invisible } : null;
}

/** Every dataset a register reads, the main one first. */
export function datasetsRead(r: RegisterDefinition): DatasetId[] {
  return [...new Set<DatasetId>([r.main, ...r.fields.flatMap((f) => [f.definitions, f.values]), ...r.resolve.map((x) => x.list)])];
}
