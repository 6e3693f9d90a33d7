import type { FieldDefinition } from './standing';
import { table, type Ctx, type Table } from './context';
import type { Kind } from './guids';
import { fieldValue } from './risks';

/** Rows a field takes per owner in a values dataset: a multi-select stores one row per chosen option. */
export const MULTI_SELECT_ROWS = 2;
const rowsOf = (f: FieldDefinition) => (f.Type === 'MultiSelect' ? Math.min(MULTI_SELECT_ROWS, f.AnswerOptions.length) : 1);

/**
 * A custom field values dataset with rows per owner and field: owner j's values stand at j * (rows per
 * owner) onwards, each drawn from its own random stream of the owner and field so that adding a field
 * does not change the values of the others. A multi-select field has a row per chosen option (distinct
 * options, as the service refuses the same option twice).
 */
export function valuesTable(
  c: Ctx,
  kind: Kind,
  ownerField: string,
  owners: number,
  fields: readonly FieldDefinition[],
): Table {
  const slots: { field: FieldDefinition; k: number; option: number }[] = [];
  fields.forEach((field, k) => {
    for (let option = 0; option < rowsOf(field); option++) slots.push({ field, k, option });
  });
  return table(owners * slots.length, (i) => {
    const owner = Math.floor(i / slots.length);
    const { field: f, k, option } = slots[i % slots.length]!;
    const r = c.rng(kind, owner, 1 + k);
    return {
      [ownerField]: c.guid(kind, owner),
      CustomFieldId: f.Id,
      Value: f.Type === 'MultiSelect' ? chosenOptions(f, r)[option]! : fieldValue(f, r),
    };
  });
}

/** The options a multi-select value holds for one owner: distinct, drawn from the owner's stream. */
export function chosenOptions(f: { AnswerOptions: { Name: string }[] }, r: { distinct(n: number, count: number): number[] }): string[] {
  return r.distinct(f.AnswerOptions.length, Math.min(MULTI_SELECT_ROWS, f.AnswerOptions.length)).map((o) => f.AnswerOptions[o]!.Name);
}
