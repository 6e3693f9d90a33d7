import type { FieldDefinition, IncidentType } from './data/standing';
import type { Store } from './store';

/**
 * Configuration actions the service offers in its UI, not in the API: the sandbox exposes them as admin
 * routes so the spec's warnings about them can be seen and tested. Each answers a result or a warning.
 */
export type ConfigResult =
  { done: true } | { done: false; Warning: string } | { done: false; notFound: string };

/** Spec, Incident type transitions: active forms using the type must be closed first, otherwise a warning. */
export function archiveIncidentType(store: Store, guid: string): ConfigResult {
  const type = store.list<IncidentType>('incidenttypes').find((t) => t.Id === guid.toLowerCase());
  if (!type) return { done: false, notFound: `No incident type with GUID ${guid}.` };
  const blocking = store.ctx.st.forms.filter(
    (f) => f.Active && !store.closedForms.has(f.Id) && f.IncidentTypeIds.includes(type.Id),
  );
  if (blocking.length)
    return {
      done: false,
      Warning: `Incident type "${type.Name}" is used by active forms; close them first: ${blocking.map((f) => f.Name).join(', ')}.`,
    };
  store.patch('incidenttypes', type.Id, { Archived: true });
  return { done: true };
}

export function closeForm(store: Store, guid: string): ConfigResult {
  const form = store.ctx.st.forms.find((f) => f.Id === guid.toLowerCase());
  if (!form) return { done: false, notFound: `No form with GUID ${guid}.` };
  store.closedForms.add(form.Id);
  return { done: true };
}

type Uses = (value: Record<string, unknown>, field: FieldDefinition, option: string) => boolean;
/** Value datasets with one row per field value name the field by its GUID. */
const byFieldId: Uses = (v, f, o) => v.CustomFieldId === f.Id && v.Value === o;

/** Where the values of each kind of custom field are, and how a value names its field. */
const VALUES_OF: Record<string, { dataset: string; uses: Uses }> = {
  // The service names the risk datasets the other way round: riskcustomfieldvalues holds the definitions.
  riskcustomfieldvalues: {
    dataset: 'riskcustomfields',
    uses: (v, f, o) =>
      (v.CustomFields as { Name: string; Value: string }[]).some((x) => x.Name === f.Name && x.Value === o),
  },
  controlcustomfields: { dataset: 'controlcustomfieldvalues', uses: byFieldId },
  thirdpartycustomfields: { dataset: 'thirdpartycustomfieldvalues', uses: byFieldId },
  thirdpartycontractcustomfields: { dataset: 'thirdpartycontractcustomfieldvalues', uses: byFieldId },
  incidenttypecustomfields: { dataset: 'incidenttypecustomfieldvalues', uses: byFieldId },
};

/** Spec, errors table: deleting a dropdown option that is in use gives a warning naming it; it is not deleted. */
export function deleteAnswerOption(store: Store, fieldGuid: string, optionGuid: string): ConfigResult {
  for (const [definitions, values] of Object.entries(VALUES_OF)) {
    const field = store.list<FieldDefinition>(definitions).find((f) => f.Id === fieldGuid.toLowerCase());
    if (!field) continue;
    const option = field.AnswerOptions.find((o) => o.Id === optionGuid.toLowerCase());
    if (!option)
      return {
        done: false,
        notFound: `Custom field "${field.Name}" has no answer option with GUID ${optionGuid}.`,
      };
    for (const v of store.records(values.dataset))
      if (values.uses(v, field, option.Name))
        return {
          done: false,
          Warning: `The option "${option.Name}" of "${field.Name}" is in use and was not deleted.`,
        };
    store.patch(definitions, field.Id, { AnswerOptions: field.AnswerOptions.filter((o) => o !== option) });
    return { done: true };
  }
  return { done: false, notFound: `No custom field with GUID ${fieldGuid}.` };
}
