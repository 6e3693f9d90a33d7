import { ACTIVE_USERS, FRAMEWORK_DIMENSIONS, ORGANIZATIONS, USERS, roleName } from './standing';
import {
  code,
  dateBefore,
  dateTimeBefore,
  listTable,
  table,
  type Ctx,
  type Rec,
  type Table,
} from './context';
import { fieldValue } from './risks';

const WHAT = [
  'Payment delayed',
  'E-mail sent to wrong recipient',
  'Server room flooding',
  'Unauthorised transfer',
  'Batch job failed',
  'Laptop lost',
];
/** Statuses the spec names for incidents. */
export const INCIDENT_STATUS_NAMES = [
  'Waiting for acceptance',
  'Waiting for improvements',
  'Ready for review',
  'Rejected',
  'Approved',
];

/** The incident types of generated incident i; every 20th shows the archived type (existing incidents keep it). */
export function incidentTypeIndexes(c: Ctx, i: number): number[] {
  if (i % 20 === 9) return [c.st.incidentTypes.findIndex((t) => t.Archived)];
  const active = c.st.incidentTypes.map((t, k) => (t.Archived ? -1 : k)).filter((k) => k >= 0);
  const r = c.rng('incident', i, 1);
  return r.distinct(active.length, 1 + (r.next() < 0.2 ? 1 : 0)).map((k) => active[k]!);
}

export function incident(c: Ctx, i: number): Rec {
  const r = c.rng('incident', i);
  const { risks, controls, moisPerType, thirdParties } = c.sizes;
  const status = r.pick(INCIDENT_STATUS_NAMES);
  const children = c.rootCauseLeaves;
  const detected = 5 + r.int(900);
  const person = () => roleName(r.pick(USERS).name);
  return {
    Id: c.guid('incident', i),
    Name: `${r.pick(WHAT)} (${i + 1})`,
    Identifier: code('INC', i),
    ReportingOrganization: r.pick(ORGANIZATIONS),
    Description: `Generated incident ${i + 1}.`,
    AffectedOrganizations: r.distinct(ORGANIZATIONS.length, r.int(3)).map((k) => ORGANIZATIONS[k]!),
    AffectedThirdParties: r.next() < 0.3 ? [`Supplier ${1 + r.int(thirdParties)}`] : [],
    IncidentTypes: incidentTypeIndexes(c, i).map((k) => c.st.incidentTypes[k]!.Name),
    RootCauseCategory: r.pick(children).Name,
    RootCause: 'Under investigation',
    Classification: r.pick(c.st.classifications).Name,
    DateDetected: dateBefore(detected),
    DateRegistered: dateTimeBefore(detected - 1, r),
    DateOccurred: dateBefore(detected + r.int(10)),
    DateClosed: status === 'Approved' ? dateBefore(r.int(detected)) : null,
    Status: status,
    Reporter: r.pick(ACTIVE_USERS),
    Assessors: [person()],
    Responsible: [person()],
    Informed: r.next() < 0.5 ? [person()] : [],
    MoiGuids: i < moisPerType ? [c.guid('moi', moiIndex('incident', i))] : [],
    RiskGuids: r.distinct(risks, 1 + r.int(2)).map((k) => c.guid('risk', k)),
    ControlGuids: r.distinct(controls, r.int(3)).map((k) => c.guid('control', k)),
  };
}

export const MOI_TYPES = [
  'risk',
  'control',
  'event',
  'thirdparty',
  'datamanagement',
  'incident',
  'bim',
] as const;
export type MoiType = (typeof MOI_TYPES)[number];
/** MOI GUIDs of all seven datasets share one kind; the type sits in the high bits of the index. */
export const moiIndex = (type: MoiType, j: number) => MOI_TYPES.indexOf(type) * 2 ** 32 + j;

function moi(c: Ctx, type: MoiType, j: number): Rec {
  const r = c.rng('moi', moiIndex(type, j));
  const s = c.sizes;
  const linked: Record<MoiType, string | null> = {
    risk: c.guid('risk', j % s.risks),
    control: c.guid('control', j % s.controls),
    event: c.guid('incident', j % s.incidents),
    thirdparty: c.guid('thirdParty', j % s.thirdParties),
    datamanagement: c.guid('dataManagement', j % s.dataManagement),
    incident: c.guid('incident', j % s.incidents),
    bim: null,
  };
  const rec: Rec = {
    Id: c.guid('moi', moiIndex(type, j)),
    Identifier: code(`MOI-${type.toUpperCase()}`, j),
    Name: `Improve ${type} follow-up ${j + 1}`,
    Status: r.pick(['Open', 'In progress', 'Completed', 'Overdue']),
    InitialDueDate: dateBefore(r.int(300) - 150),
    LinkedObjectGuid: linked[type],
  };
  if (type === 'bim')
    rec.FrameworkDimensions = r
      .distinct(FRAMEWORK_DIMENSIONS.length, 1 + r.int(2))
      .map((k) => FRAMEWORK_DIMENSIONS[k]!);
  return rec;
}

export function incidentTables(c: Ctx): Record<string, Table> {
  const st = c.st;
  const out: Record<string, Table> = {
    incidents: table(c.sizes.incidents, (i) => incident(c, i)),
    incidentclassifications: listTable(st.classifications),
    incidenttypes: listTable(st.incidentTypes),
    incidenttypecustomfields: listTable(st.incidentTypeFields),
    // One populated field per generated incident: the first field of its first type.
    incidenttypecustomfieldvalues: table(c.sizes.incidents, (i) => {
      const type = st.incidentTypes[incidentTypeIndexes(c, i)[0]!]!;
      const f = st.incidentTypeFields.find((x) => x.IncidentTypeId === type.Id)!;
      return {
        IncidentId: c.guid('incident', i),
        CustomFieldId: f.Id,
        Value: fieldValue(f, c.rng('incident', i, 2)),
      };
    }),
  };
  for (const t of MOI_TYPES) out[`moi-${t}`] = table(c.sizes.moisPerType, (j) => moi(c, t, j));
  return out;
}
