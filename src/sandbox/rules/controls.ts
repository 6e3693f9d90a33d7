import type { z } from 'zod';
import type { bodies } from '../../catalog';
import { AWAITING_CONCLUSION } from '../data/controls';
import { failure, ok, rejected } from '../errors';
import { onRecord, stamp, type WriteHandler } from './context';

/** Spec: final score in Testing - awaiting conclusion only, by an assigned tester or a control administrator. */
export const submitFinalScore = onRecord<z.infer<typeof bodies.finalScore>>(
  'controltestplan',
  'control test plan',
  ({ store, key, body }, plan) => {
    const control = store.find('control', plan.ControlGuid as string);
    const allowed = [
      ...((control?.Testers as string[]) ?? []),
      ...((control?.Administrators as string[]) ?? []),
    ];
    if (!allowed.includes(key.owner.name)) return failure('forbidden');
    if (plan.NonOccurrence)
      return rejected([
        {
          field: 'Score',
          message: `${String(plan.Name)} is a non-occurrence test plan; it follows another workflow without a final score.`,
        },
      ]);
    if (plan.Status !== AWAITING_CONCLUSION)
      return rejected([
        {
          field: 'Score',
          message: `${String(plan.Name)} is "${String(plan.Status)}"; a final score needs the status "${AWAITING_CONCLUSION}".`,
        },
      ]);
    store.patch('controltestplan', plan.Id as string, {
      Score: body.Score,
      Comment: body.Comment,
      Status: 'Review - in progress',
      Phase: 'Review',
    });
    return ok({ Id: plan.Id });
  },
);

export const generateSamples = onRecord<z.infer<typeof bodies.generateSamples>>(
  'controltestplan',
  'control test plan',
  ({ store, body }, plan) => {
    const ids: string[] = [];
    for (let k = 0; k < body.Count; k++) {
      const id = store.ctx.guid('sample', store.nextIndex('sample', store.generatedCount('samples')));
      store.add('samples', {
        Id: id,
        TestPlanId: plan.Id,
        Name: `Generated sample ${k + 1}`,
        DocumentGuid: null,
        DocumentName: null,
      });
      ids.push(id);
    }
    return ok({ Ids: ids });
  },
);

export const createFormResult: WriteHandler<z.infer<typeof bodies.createFormResult>> = ({
  store,
  guid,
  body,
  now,
}) => {
  const form = store.ctx.st.forms.find((f) => f.Id === guid!.toLowerCase());
  if (!form) return failure('notFound', `No form with GUID ${guid}.`);
  // Spec: all field names of the form must be unique.
  const seen = new Set<string>();
  const problems = body.Values.flatMap((v, i) => {
    if (seen.has(v.FieldName))
      return [
        {
          field: `Values[${i}].FieldName`,
          message: `Field name "${v.FieldName}" is given twice; field names must be unique.`,
        },
      ];
    seen.add(v.FieldName);
    return [];
  });
  if (problems.length) return rejected(problems, 'The form result was not created.');
  const id = store.ctx.guid('formResult', store.nextIndex('formResult', store.generatedCount('formresults')));
  store.add('formresults', { Id: id, FormId: form.Id, SubmittedAt: stamp(now), Values: body.Values });
  return ok({ Id: id }, 201);
};
