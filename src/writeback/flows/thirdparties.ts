import type { z } from 'zod';
import { checkLei, type bodies } from '../../catalog';
import { records, str } from '../api';
import { directory, knownNames } from '../checks/names';
import {
  customFieldColumn,
  customFields,
  readCustomField,
  type CustomFieldEntry,
  type CustomField,
} from './customfields';
import type { Flow, RowInput } from '../flow';
import { cellWarning } from '../problem';
import { RowReader } from '../rows/rowreader';
import { customColumns, findUnique } from './common';
import { THIRD_PARTY_BODY_COLUMNS, THIRD_PARTY_COLUMNS, thirdPartiesDescription } from '../../contracts/flows/thirdparties';

export { THIRD_PARTY_COLUMNS };

export type CreateThirdParty = z.infer<typeof bodies.createThirdParty>;

const C = THIRD_PARTY_COLUMNS;
const COLUMN_OF = THIRD_PARTY_BODY_COLUMNS;

/**
 * Reads the custom field columns of a third party or contract row. The spec states no creation rule for
 * their required fields, so a blank required field is a warning, not a refusal.
 */
export function readCustomFields(
  fields: readonly CustomField[],
  row: RowInput,
  r: RowReader,
): CustomFieldEntry[] | undefined {
  const out: CustomFieldEntry[] = [];
  for (const f of fields) {
    const v = readCustomField(f, row(f.column));
    if (!v.ok) r.error(f.column, v.code, v.message);
    else if (v.value !== undefined) out.push(...v.value);
    // Only on a column the table has: where the file has no place for custom fields the template offers none.
    else if (f.required && row(f.column) !== undefined)
      r.problems.push(
        cellWarning(
          f.column,
          'required-field-empty',
          `${f.name} is marked required in the service; fill it in unless you know it may stay empty`,
        ),
      );
  }
  return out.length ? out : undefined;
}

/** Create third parties (spec, Third party): custom fields, framework dimensions, LEI code with its check. */
export const thirdPartiesFlow: Flow<CreateThirdParty, 'thirdparty'> = {
  ...thirdPartiesDescription,
  setup(standing, ctx) {
    const fields = customFields(
      records(standing, 'thirdpartycustomfields'),
      (d) => str(d, 'Name') ?? 'Custom field',
    );
    const dimensions = directory(standing).frameworkDimensions;
    return {
      requiredColumns: [C.name],
      columns: (lookupSheet) => [
        { name: C.name, format: 'text' },
        { name: C.lei, format: 'text' },
        dimensions
          ? {
              name: C.frameworkDimensions,
              format: 'text',
              list: { sheet: lookupSheet, values: dimensions.entries.map((d) => d.name), allowOther: true },
            }
          : { name: C.frameworkDimensions, format: 'text' },
        ...fields.map((f) => customFieldColumn(f, lookupSheet)),
      ],
      prepare(row) {
        const r = new RowReader(row, ctx);
        const name = r.text(C.name, { required: true, what: 'the third party name' });
        const lei = r.text(C.lei)?.toUpperCase();
        if (lei !== undefined) {
          const check = checkLei(lei);
          if (!check.ok)
            r.error(
              C.lei,
              check.code,
              `${check.message}; type the 20-character code from the GLEIF register, or leave it empty`,
            );
        }
        const body: CreateThirdParty = {
          Name: name ?? '',
          LeiCode: lei,
          FrameworkDimensions: knownNames(r, C.frameworkDimensions, dimensions),
          CustomFields: readCustomFields(fields, row, r),
        };
        return r.prepared('thirdparty-create', body, COLUMN_OF, body);
      },
      call: (body) => ({
        operation: 'thirdparty-create',
        body,
        columnOf: { ...COLUMN_OF, CustomFields: customColumns(fields, body.CustomFields) },
      }),
      done: () => 'Created',
      find: (body, rs, taken, sent) =>
        findUnique(
          rs,
          taken,
          { field: 'DateCreated', since: sent.at },
          (rec) => rec.Name === body.Name && (body.LeiCode === undefined || rec.LeiCode === body.LeiCode),
        ),
    };
  },
};
