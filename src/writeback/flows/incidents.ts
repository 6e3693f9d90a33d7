import type { z } from 'zod';
import { bodies } from '../../catalog';
import type { ColumnSpec } from '../../workbook/port';
import { records, str } from '../api';
import * as cells from '../rows/cells';
import { customFieldColumn, customFields, type CustomField, type CustomFieldEntry } from './customfields';
import * as customfields from './customfields';
import type { Call, Flow, Found } from '../flow';
import { directory } from '../checks/names';
import * as names from '../checks/names';
import { nameIndex, type NameIndex } from '../checks/nameindex';
import * as problem from '../problem';
import * as rowreader from '../rows/rowreader';
import { customColumns, findUnique } from './common';
import { INCIDENT_BODY_COLUMNS, INCIDENT_COLUMNS, incidentsDescription } from '../../contracts/flows/incidents';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { isBlank } = cells;
const { readCustomField } = customfields;
const { knownName, knownNames, knownPeople } = names;
const { cellError, cellWarning } = problem;
const { RowReader } = rowreader;

export { INCIDENT_COLUMNS };

export type CreateIncident = z.infer<typeof bodies.createIncident>;
export interface IncidentRequest {
  body: CreateIncident;
  hyperlink?: string;
}

const C = INCIDENT_COLUMNS;
const bodyColumns = INCIDENT_BODY_COLUMNS;

const entries = <T extends { Name?: string | null }>(rs: readonly T[], id: keyof T & string) =>
  rs.flatMap((r) =>
    str(r, id) && str(r, 'Name')
      ? // Archived is typed for incident types only; another list that sends it is honoured too.
        [{ id: str(r, id)!, name: str(r, 'Name')!, archived: (r as Readonly<Record<string, unknown>>).Archived === true }]
      : [],
  );

/**
 * An incident's create call. Its columns are worked out only where a value is refused: validation makes every
 * row's call, 10,000 per sheet. A class, so the getter is the prototype's: a getter in an object literal is
 * a new function and a new shape for every row.
 */
class CreateCall implements Call {
  readonly operation = 'incident-create';
  constructor(
    readonly body: CreateIncident,
    private readonly fields: readonly CustomField[],
  ) {}
  get columnOf(): Call['columnOf'] {
    return { ...bodyColumns, CustomFields: customColumns(this.fields, this.body.CustomFields) };
  }
}

/**
 * Create incidents (spec, Incident): only the name and the reporting organization are required (rule 1);
 * the reporter is the key's owner (rule 3); a blank detection date is left to the service, which uses
 * today (rule 4). Hyperlinks are added after creation (rule 8).
 */
export const incidentsFlow: Flow<IncidentRequest, 'incidents'> = {
  ...incidentsDescription,
  setup(standing, ctx) {
    // A list the environment lacks takes GUIDs as they are (datasetNeeds says to type them); the service checks them.
    const types = nameIndex(entries(records(standing, 'incidenttypes'), 'Id'), 'incident types', !standing.has('incidenttypes'));
    const classifications = nameIndex(
      entries(records(standing, 'incidentclassifications'), 'Id'),
      'classifications',
      !standing.has('incidentclassifications'),
    );
    const rootCauses = nameIndex(
      entries(records(standing, 'riskrootcausecategory'), 'GUID'),
      'root cause categories',
      !standing.has('riskrootcausecategory'),
    );
    const dir = directory(standing);
    const typeName = (id: string | undefined) => (id && types.byId(id)?.name) || 'no type';
    const fields = customFields(
      records(standing, 'incidenttypecustomfields'),
      (d) => `${str(d, 'Name')} [${typeName(str(d, 'IncidentTypeId'))}]`,
    );

    return {
      requiredColumns: [C.name, C.reportingOrganization],
      columns(lookupSheet) {
        const list = (values: string[], allowOther = false) => ({ sheet: lookupSheet, values, allowOther });
        const text = (name: string): ColumnSpec => ({ name, format: 'text' });
        // Lists of names from the directory datasets, when the environment has them; cells that take
        // several names ("A; B") accept other text and validation checks every name.
        const names = (name: string, index: NameIndex | undefined, several = true): ColumnSpec =>
          index ? { name, format: 'text', list: list([...new Set(index.entries.map((e) => e.name))], several) } : text(name);
        const people = (name: string): ColumnSpec =>
          dir.users
            ? { name, format: 'text', list: list(dir.users.entries.filter((u) => !u.deleted).map((u) => u.name), true) }
            : text(name);
        return [
          text(C.name),
          names(C.reportingOrganization, dir.organizations, false),
          names(C.affectedOrganizations, dir.organizations),
          // Several types may be given ("A; B"): the dropdown offers the active types and accepts other
          // text; validation checks every name (archived types are refused there, with the reason).
          {
            name: C.types,
            format: 'text',
            list: list([...new Set(types.entries.filter((t) => !t.archived).map((t) => t.name))], true),
          },
          { name: C.classification, format: 'text', list: list(classifications.entries.map((c) => c.name)) },
          { name: C.rootCauseCategory, format: 'text', list: list(rootCauses.entries.map((c) => c.name)) },
          text(C.rootCause),
          text(C.description),
          { name: C.dateDetected, format: 'date' },
          { name: C.dateOccurred, format: 'date' },
          people(C.assessors),
          people(C.responsible),
          people(C.informed),
          names(C.businessDimensions, dir.businessDimensions),
          names(C.frameworkDimensions, dir.frameworkDimensions),
          text(C.hyperlink),
          ...fields.map((f) => customFieldColumn(f, lookupSheet)),
        ];
      },
      prepare(row) {
        const r = new RowReader(row, ctx);
        const name = r.text(C.name, { required: true, what: 'the incident name' });
        const reportingOrganization = knownName(r, C.reportingOrganization, dir.organizations, {
          required: true,
          what: 'the reporting organization',
        });
        const typeIds = r.names(C.types, types) ?? [];
        for (let i = 0; i < typeIds.length; i++) {
          const t = types.byId(typeIds[i]!);
          if (t?.archived)
            r.error(
              C.types,
              'archived-type',
              `incident type "${t.name}" is archived, so new incidents of this type cannot be created; choose an active type`,
            );
        }
        const custom: CustomFieldEntry[] = [];
        const missingRequired: string[] = [];
        for (let i = 0; i < fields.length; i++) {
          const f = fields[i]!;
          const cell = row(f.column);
          const v = readCustomField(f, cell);
          // A blank cell of a field that is not required: nothing to check (most of a row's custom fields).
          if (v.ok && v.value === undefined && !f.required) continue;
          const selected = f.incidentTypeId !== undefined && typeIds.includes(f.incidentTypeId);
          if (!v.ok) {
            r.error(f.column, v.code, v.message);
          } else if (v.value !== undefined && !selected) {
            r.error(
              f.column,
              'field-of-unselected-type',
              `${f.name} belongs to incident type "${typeName(f.incidentTypeId)}", which this row does not select; clear this cell or add that type to ${C.types}`,
            );
          } else if (v.value !== undefined) {
            for (let k = 0; k < v.value.length; k++) custom.push(v.value[k]!);
          } else if (selected && f.required) {
            missingRequired.push(f.column);
            r.problems.push(
              cellWarning(
                f.column,
                'needed-for-acceptance',
                `${f.name} is required before the incident can move to Waiting for acceptance; it can be created without it`,
              ),
            );
          }
        }
        const hyperlink = r.text(C.hyperlink);
        if (hyperlink !== undefined) {
          const h = bodies.hyperlinkUrl.safeParse(String(row(C.hyperlink)));
          if (!h.success)
            r.problems.push(
              cellError(
                C.hyperlink,
                'invalid-hyperlink',
                // The fix that fits what is wrong: a link too long is shortened, one with spaces loses them.
                `${h.error.issues[0]!.message}; ${h.error.issues[0]!.code === 'too_big' ? 'shorten it (a link to a document in the service, or a short link, fits)' : 'remove the spaces and line breaks (a space inside a link is written %20)'}`,
              ),
            );
          // Spec, errors table: a hyperlink cannot be added while required fields are unfilled (rule 2 names them).
          for (const c of [C.assessors, C.responsible, C.description])
            if (isBlank(row(c))) missingRequired.push(c);
          if (missingRequired.length) {
            r.problems.push(
              cellError(
                C.hyperlink,
                'hyperlink-needs-required-fields',
                `a hyperlink can only be added once the required fields are filled; fill ${missingRequired.join(', ')}, or leave the hyperlink out and add it later`,
              ),
            );
          }
        }
        const body: CreateIncident = {
          Name: name ?? '',
          ReportingOrganization: reportingOrganization ?? '',
          AffectedOrganizations: knownNames(r, C.affectedOrganizations, dir.organizations),
          IncidentTypes: typeIds.length ? typeIds : undefined,
          Classification: r.name(C.classification, classifications),
          RootCauseCategory: r.name(C.rootCauseCategory, rootCauses),
          RootCause: r.text(C.rootCause),
          Description: r.text(C.description),
          DateDetected: r.date(C.dateDetected),
          DateOccurred: r.date(C.dateOccurred),
          Assessors: knownPeople(r, C.assessors, dir.users),
          Responsible: knownPeople(r, C.responsible, dir.users),
          Informed: knownPeople(r, C.informed, dir.users),
          BusinessDimensions: knownNames(r, C.businessDimensions, dir.businessDimensions),
          FrameworkDimensions: knownNames(r, C.frameworkDimensions, dir.frameworkDimensions),
          CustomFields: custom.length ? custom : undefined,
        };
        return r.prepared('incident-create', body, bodyColumns, { body, hyperlink });
      },
      call: (request) => new CreateCall(request.body, fields),
      done: () => 'Created',
      // Spec, Incident rule 8: hyperlinks are added after creation, with their own call.
      followUp: (request) =>
        request.hyperlink === undefined
          ? undefined
          : {
              what: 'hyperlink',
              call: (guid) => ({
                operation: 'incident-hyperlink',
                guid,
                body: { Url: request.hyperlink },
                columnOf: { Url: C.hyperlink },
              }),
            },
      find(request, rs, taken, sent): Found {
        const b = request.body;
        return findUnique(
          rs,
          taken,
          { field: 'DateRegistered', since: sent.at },
          (rec) =>
            rec.Name === b.Name &&
            rec.ReportingOrganization === b.ReportingOrganization &&
            (b.Description === undefined || rec.Description === b.Description) &&
            (b.DateDetected === undefined || str(rec, 'DateDetected')?.slice(0, 10) === b.DateDetected),
        );
      },
    };
  },
};
