import type { z } from 'zod';
import type { bodies } from '../../catalog';
import {
  BUSINESS_DIMENSIONS,
  ORGANIZATIONS,
  type IncidentType,
  type IncidentTypeField,
} from '../data/standing';
import { code } from '../data/context';
import { indexOf } from '../data/guids';
import { ok, rejected, type Problem } from '../errors';
import { isAppAdmin } from '../auth';
import type { Rec } from '../data/context';
import type { Store } from '../store';
import { checkCustomFields } from './customfields';
import {
  invalidBase64,
  newDocumentId,
  onRecord,
  stamp,
  today,
  type WriteCtx,
  type WriteHandler,
} from './context';
import { checkKnown, checkFrameworkDimensions } from './known';
import { checkPeople, sameUser } from './people';

/** The status of a new incident is not shown in the spec; we call it "New" (before Waiting for acceptance). */
export const NEW_INCIDENT_STATUS = 'New';
export const WAITING_FOR_ACCEPTANCE = 'Waiting for acceptance';

type CreateBody = z.infer<typeof bodies.createIncident>;

/** Incident types and their fields as they stand now (types can be archived through the admin routes). */
const incidentTypes = (store: Store) => store.list<IncidentType>('incidenttypes');
const incidentTypeFields = (store: Store) => store.list<IncidentTypeField>('incidenttypecustomfields');

/** Every change to an incident is written to its history, by the key's owner. */
function logHistory({ store, key, now }: WriteCtx<unknown>, incidentId: string, action: string): void {
  store.incidentExtra(incidentId).history.push({ at: stamp(now), by: key.owner.name, action });
}

/** POST create incident: spec, Incident rules 1 to 6 and 9. */
export const createIncident: WriteHandler<CreateBody> = (w) => {
  const { store, key, body, now } = w;
  const st = store.ctx.st;
  const allTypes = incidentTypes(store);
  const problems: Problem[] = [];
  // Rule 1: only the name and the reporting organization are required at creation.
  if (!body.Name.trim()) problems.push({ field: 'Name', message: 'An incident needs a name.' });
  if (!body.ReportingOrganization.trim())
    problems.push({ field: 'ReportingOrganization', message: 'An incident needs a reporting organization.' });
  // A service whose file wants the organization's GUID (a bound sandbox, see server.ts) is given one.
  else if (
    !ORGANIZATIONS.includes(body.ReportingOrganization) &&
    (indexOf(store.ctx.seed, 'organization', body.ReportingOrganization) ?? ORGANIZATIONS.length) >=
      ORGANIZATIONS.length
  )
    problems.push({
      field: 'ReportingOrganization',
      message: `"${body.ReportingOrganization}" is not a known organization; known: ${ORGANIZATIONS.join(', ')}.`,
    });
  checkKnown('AffectedOrganizations', body.AffectedOrganizations, ORGANIZATIONS, 'organization', problems);
  checkKnown(
    'BusinessDimensions',
    body.BusinessDimensions,
    BUSINESS_DIMENSIONS,
    'business dimension',
    problems,
  );
  checkFrameworkDimensions(body.FrameworkDimensions, problems);
  for (const role of ['Assessors', 'Responsible', 'Informed'] as const)
    checkPeople(role, body[role], problems);

  const types = (body.IncidentTypes ?? []).map((g, i) => {
    const t = allTypes.find((x) => x.Id === g.toLowerCase());
    if (!t) problems.push({ field: `IncidentTypes[${i}]`, message: `No incident type with GUID ${g}.` });
    // Rule 9: new incidents of an archived type cannot be created.
    else if (t.Archived)
      problems.push({
        field: `IncidentTypes[${i}]`,
        message: `Incident type "${t.Name}" is archived; new incidents of this type cannot be created.`,
      });
    return t;
  });
  const selected = new Set(types.filter((t) => t && !t.Archived).map((t) => t!.Id));
  const classification =
    body.Classification && st.classifications.find((c) => c.Id === body.Classification!.toLowerCase());
  if (body.Classification && !classification)
    problems.push({
      field: 'Classification',
      message: `No classification with GUID ${body.Classification}.`,
    });
  const rootCause =
    body.RootCauseCategory && st.rootCauses.find((c) => c.GUID === body.RootCauseCategory!.toLowerCase());
  if (body.RootCauseCategory && !rootCause)
    problems.push({
      field: 'RootCauseCategory',
      message: `No root cause category with GUID ${body.RootCauseCategory}.`,
    });

  // Rule 5: values for custom fields of incident types that are not selected are rejected.
  const fields = checkCustomFields(body.CustomFields ?? [], incidentTypeFields(store), (f) => {
    const type = allTypes.find((t) => t.Id === (f as IncidentTypeField).IncidentTypeId)!;
    return selected.has(type.Id)
      ? null
      : `"${f.Name}" belongs to incident type "${type.Name}", which is not selected.`;
  });
  problems.push(...fields.problems);
  if (problems.length) return rejected(problems, 'The incident was not created.');

  const index = store.nextIndex('incident', store.generatedCount('incidents'));
  const id = store.ctx.guid('incident', index);
  const rec: Rec = {
    Id: id,
    Name: body.Name.trim(),
    Identifier: code('INC', index),
    ReportingOrganization: body.ReportingOrganization,
    Description: body.Description ?? null,
    AffectedOrganizations: body.AffectedOrganizations ?? [],
    AffectedThirdParties: [],
    IncidentTypes: types.map((t) => t!.Name),
    RootCauseCategory: rootCause ? rootCause.Name : null,
    RootCause: body.RootCause ?? null,
    Classification: classification ? classification.Name : null,
    // Rule 4: the detection date is optional and defaults to today.
    DateDetected: body.DateDetected?.slice(0, 10) ?? today(now),
    DateRegistered: stamp(now),
    DateOccurred: body.DateOccurred?.slice(0, 10) ?? null,
    DateClosed: null,
    Status: NEW_INCIDENT_STATUS,
    // Rule 3: the reporter is the creating user, the key's owner.
    Reporter: key.owner.name,
    Assessors: body.Assessors ?? [],
    Responsible: body.Responsible ?? [],
    Informed: body.Informed ?? [],
    BusinessDimensions: body.BusinessDimensions ?? [],
    FrameworkDimensions: body.FrameworkDimensions ?? [],
    MoiGuids: [],
    RiskGuids: [],
    ControlGuids: [],
  };
  store.add('incidents', rec);
  for (const v of fields.values)
    store.add('incidenttypecustomfieldvalues', { IncidentId: id, CustomFieldId: v.field.Id, Value: v.value });
  logHistory(w, id, 'Incident created');
  return ok({ Id: id }, 201);
};

/** Custom field values of an incident: the generated one (by index) and those written. */
function fieldValues(store: Store, incidentId: string): Map<string, string> {
  const out = new Map<string, string>();
  const index = indexOf(store.ctx.seed, 'incident', incidentId);
  const generated = index === null ? undefined : store.generated('incidenttypecustomfieldvalues', index);
  if (generated && index! < store.generatedCount('incidents'))
    out.set(generated.CustomFieldId as string, generated.Value as string);
  for (const v of store.addedRecords('incidenttypecustomfieldvalues'))
    if (v.IncidentId === incidentId) out.set(v.CustomFieldId as string, v.Value as string);
  return out;
}

/** Rule 2: fields configured as required (assessors, responsible, description, required custom fields of its types). */
export function missingRequired(store: Store, incident: Rec): Problem[] {
  const problems: Problem[] = [];
  const empty = (v: unknown) =>
    v === null || v === undefined || (Array.isArray(v) ? v.length === 0 : String(v).trim() === '');
  if (empty(incident.Assessors)) problems.push({ field: 'Assessors', message: 'An assessor is required.' });
  if (empty(incident.Responsible))
    problems.push({ field: 'Responsible', message: 'A responsible user is required.' });
  if (empty(incident.Description))
    problems.push({ field: 'Description', message: 'A description is required.' });
  const values = fieldValues(store, incident.Id as string);
  const typeIds = incidentTypes(store)
    .filter((t) => (incident.IncidentTypes as string[]).includes(t.Name))
    .map((t) => t.Id);
  for (const f of incidentTypeFields(store))
    if (f.Required && typeIds.includes(f.IncidentTypeId) && empty(values.get(f.Id)))
      problems.push({
        field: `CustomFields[${f.Id}]`,
        message: `The required custom field "${f.Name}" is not filled.`,
      });
  return problems;
}

export const changeIncidentStatus = onRecord<z.infer<typeof bodies.changeIncidentStatus>>(
  'incidents',
  'incident',
  (w, incident) => {
    const { store, body, now } = w;
    if (body.Status === WAITING_FOR_ACCEPTANCE) {
      const missing = missingRequired(store, incident);
      if (missing.length)
        return rejected(
          missing,
          'The incident cannot move to Waiting for acceptance while required fields are unfilled.',
        );
    }
    store.patch('incidents', incident.Id as string, {
      Status: body.Status,
      DateClosed: body.Status === 'Approved' ? today(now) : null,
    });
    logHistory(w, incident.Id as string, `Status changed from ${String(incident.Status)} to ${body.Status}`);
    return ok({ Id: incident.Id });
  },
);

/** Rule 8 and the errors table: additions are not possible while required fields are unfilled. */
function blockedByRequired(store: Store, incident: Rec, what: string) {
  const missing = missingRequired(store, incident);
  return missing.length
    ? rejected(missing, `A ${what} cannot be added to this incident while required fields are unfilled.`)
    : null;
}

export const addIncidentDocument = onRecord<z.infer<typeof bodies.addDocument>>(
  'incidents',
  'incident',
  (w, incident) => {
    const { store, key, body } = w;
    // Spec, Authentication rule 11 and the errors table: others get a warning, not an error.
    const role = [...(incident.Assessors as string[]), ...(incident.Responsible as string[])].some((n) =>
      sameUser(n, key.owner.name),
    );
    if (!isAppAdmin(key) && !role)
      return ok({
        Warning: `${key.owner.name} may not add documents to incident ${String(incident.Identifier)}: only an Application Administrator or an assessor or responsible of the incident can.`,
      });
    const refused = invalidBase64(body.ContentBase64) ?? blockedByRequired(store, incident, 'document');
    if (refused) return refused;
    const id = newDocumentId(store);
    store.incidentExtra(incident.Id as string).documents.push({
      Id: id,
      FileName: body.FileName,
      Size: Buffer.from(body.ContentBase64, 'base64').length,
    });
    logHistory(w, incident.Id as string, `Document added: ${body.FileName}`);
    return ok({ Id: id });
  },
);

export const addIncidentHyperlink = onRecord<z.infer<typeof bodies.addHyperlink>>(
  'incidents',
  'incident',
  (w, incident) => {
    const { store, body } = w;
    // Rule 9: a hyperlink type is identified by its unique GUID; an unknown one is refused.
    if (
      body.HyperlinkTypeGuid &&
      !store.ctx.st.hyperlinkTypes.some((t) => t.Id === body.HyperlinkTypeGuid!.toLowerCase())
    )
      return rejected([
        { field: 'HyperlinkTypeGuid', message: `No hyperlink type with GUID ${body.HyperlinkTypeGuid}.` },
      ]);
    const blocked = blockedByRequired(store, incident, 'hyperlink');
    if (blocked) return blocked;
    const id = store.ctx.guid('hyperlink', store.nextIndex('hyperlink', 0));
    store.incidentExtra(incident.Id as string).hyperlinks.push({
      Id: id,
      Url: body.Url,
      Description: body.Description,
      HyperlinkTypeGuid: body.HyperlinkTypeGuid,
    });
    logHistory(w, incident.Id as string, `Hyperlink added: ${body.Url.slice(0, 200)}`);
    return ok({ Id: id });
  },
);
