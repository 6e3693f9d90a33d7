import type { z } from 'zod';
import type { bodies } from '../../catalog';
import type { FieldDefinition } from '../data/standing';
import { ok, rejected, type Problem } from '../errors';
import type { Store } from '../store';
import { checkCustomFields, type StoredValue } from './customfields';
import { stamp, type WriteHandler } from './context';
import { checkFrameworkDimensions } from './known';

/** Value datasets carry visible populated fields only (spec, Third party). */
function storeValues(store: Store, datasetId: string, owner: Record<string, string>, values: StoredValue[]) {
  for (const v of values)
    if (v.field.Visible) store.add(datasetId, { ...owner, CustomFieldId: v.field.Id, Value: v.value });
}

export const createThirdParty: WriteHandler<z.infer<typeof bodies.createThirdParty>> = ({
  store,
  body,
  now,
}) => {
  const problems: Problem[] = [];
  if (!body.Name.trim()) problems.push({ field: 'Name', message: 'A third party needs a name.' });
  // The LEI code's validity check (ISO 17442) is in the body schema (catalog), so an invalid one is refused
  // with the other shape errors before this rule runs.
  checkFrameworkDimensions(body.FrameworkDimensions, problems);
  const fields = checkCustomFields(
    body.CustomFields ?? [],
    store.list<FieldDefinition>('thirdpartycustomfields'),
  );
  problems.push(...fields.problems);
  if (problems.length) return rejected(problems, 'The third party was not created.');
  const id = store.ctx.guid('thirdParty', store.nextIndex('thirdParty', store.generatedCount('thirdparty')));
  store.add('thirdparty', {
    Id: id,
    Name: body.Name.trim(),
    LeiCode: body.LeiCode || null,
    FrameworkDimensions: body.FrameworkDimensions ?? [],
    DateCreated: stamp(now),
  });
  storeValues(store, 'thirdpartycustomfieldvalues', { ThirdPartyGuid: id }, fields.values);
  return ok({ Id: id }, 201);
};

export const createContract: WriteHandler<z.infer<typeof bodies.createContract>> = ({ store, body, now }) => {
  const problems: Problem[] = [];
  if (!store.find('thirdparty', body.ThirdPartyGuid))
    problems.push({ field: 'ThirdPartyGuid', message: `No third party with GUID ${body.ThirdPartyGuid}.` });
  if (!body.Name.trim()) problems.push({ field: 'Name', message: 'A contract needs a name.' });
  // Spec: the notice period is a number plus a unit; with the unit None the number is not required.
  if (body.NoticePeriodUnit !== 'None' && body.NoticePeriod === undefined)
    problems.push({
      field: 'NoticePeriod',
      message: `A notice period in ${body.NoticePeriodUnit} needs a number.`,
    });
  if (body.NoticePeriod !== undefined && !(Number.isInteger(body.NoticePeriod) && body.NoticePeriod >= 0))
    problems.push({ field: 'NoticePeriod', message: 'The notice period is a whole number, 0 or more.' });
  if (body.StartDate && body.EndDate && body.EndDate.slice(0, 10) < body.StartDate.slice(0, 10))
    problems.push({
      field: 'EndDate',
      message: `The end date ${body.EndDate} is before the start date ${body.StartDate}.`,
    });
  const fields = checkCustomFields(
    body.CustomFields ?? [],
    store.list<FieldDefinition>('thirdpartycontractcustomfields'),
  );
  problems.push(...fields.problems);
  if (problems.length) return rejected(problems, 'The contract was not created.');
  const id = store.ctx.guid(
    'contract',
    store.nextIndex('contract', store.generatedCount('thirdpartycontract')),
  );
  store.add('thirdpartycontract', {
    Id: id,
    ThirdPartyGuid: body.ThirdPartyGuid.toLowerCase(),
    Name: body.Name.trim(),
    Services: body.Services ?? [],
    StartDate: body.StartDate?.slice(0, 10) ?? null,
    EndDate: body.EndDate?.slice(0, 10) ?? null,
    NoticePeriod: body.NoticePeriod ?? null,
    NoticePeriodUnit: body.NoticePeriodUnit,
    DateCreated: stamp(now),
  });
  storeValues(store, 'thirdpartycontractcustomfieldvalues', { ContractGuid: id }, fields.values);
  return ok({ Id: id }, 201);
};
