import type { FieldDefinition } from './standing';
import { table, type Ctx, type Table } from './context';
import type { Kind } from './guids';
import { fieldValue } from './risks';

/**
 * A custom field values dataset with one record per owner and field: owner j's values stand at
 * j * fields.length onwards, each drawn from its own random stream of the owner so that adding a field
 * does not change the values of the others.
 */
export function valuesTable(
  c: Ctx,
  kind: Kind,
  ownerField: string,
  owners: number,
  fields: readonly FieldDefinition[],
): Table {
  return table(owners * fields.length, (i) => {
    const owner = Math.floor(i / fields.length);
    const f = fields[i % fields.length]!;
    return {
      [ownerField]: c.guid(kind, owner),
      CustomFieldId: f.Id,
      Value: fieldValue(f, c.rng(kind, owner, 1 + (i % fields.length))),
    };
  });
}
