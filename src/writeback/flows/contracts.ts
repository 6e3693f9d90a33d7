import type { z } from 'zod';
import { bodies } from '../../catalog';
import { records, str } from '../api';
import { customFieldColumn, customFields } from './customfields';
import type { Flow } from '../flow';
import { offerNames } from '../checks/closest';
import { nameIndex } from '../checks/nameindex';
import { RowReader } from '../rows/rowreader';
import { customColumns, findUnique } from './common';
import { CONTRACT_BODY_COLUMNS, CONTRACT_COLUMNS, contractsDescription } from '../../contracts/flows/contracts';

export { CONTRACT_COLUMNS };
import { readCustomFields } from './thirdparties';

export type CreateContract = z.infer<typeof bodies.createContract>;
type Unit = CreateContract['NoticePeriodUnit'];

const C = CONTRACT_COLUMNS;
const bodyColumns = CONTRACT_BODY_COLUMNS;

/**
 * Create third-party contracts (spec, Third party contract): services, start and end date, a notice
 * period as a number plus a unit of months, weeks, days or none (no number needed with none), custom
 * fields. The end date may not precede the start date.
 */
export const contractsFlow: Flow<CreateContract, 'thirdpartycontract'> = {
  ...contractsDescription,
  setup(standing, ctx) {
    // The file may add units (globex: Years): offered, accepted and sent as it spells them.
    const units = ctx.environment.enumValues('contract-create', 'NoticePeriodUnit', bodies.NOTICE_PERIOD_UNITS);
    const thirdParties = nameIndex(
      records(standing, 'thirdparty').flatMap((t) =>
        str(t, 'Id') && str(t, 'Name') ? [{ id: str(t, 'Id')!, name: str(t, 'Name')! }] : [],
      ),
      'third parties',
      !standing.has('thirdparty'),
    );
    const fields = customFields(
      records(standing, 'thirdpartycontractcustomfields'),
      (d) => str(d, 'Name') ?? 'Custom field',
    );
    return {
      requiredColumns: [C.thirdParty, C.name],
      columns: (lookupSheet) => [
        {
          name: C.thirdParty,
          format: 'text',
          list: { sheet: lookupSheet, values: [...new Set(thirdParties.entries.map((t) => t.name))] },
        },
        { name: C.name, format: 'text' },
        { name: C.services, format: 'text' },
        { name: C.startDate, format: 'date' },
        { name: C.endDate, format: 'date' },
        { name: C.noticePeriod, format: 'number' },
        {
          name: C.noticePeriodUnit,
          format: 'text',
          list: { sheet: lookupSheet, values: units },
        },
        ...fields.map((f) => customFieldColumn(f, lookupSheet)),
      ],
      prepare(row) {
        const r = new RowReader(row, ctx);
        const thirdParty = r.name(C.thirdParty, thirdParties, { required: true, what: 'the third party' });
        const name = r.text(C.name, { required: true, what: 'the contract name' });
        const start = r.date(C.startDate);
        const end = r.date(C.endDate);
        if (start && end && end < start)
          r.error(
            C.endDate,
            'end-before-start',
            `the end date ${end} is before the start date ${start}; correct one of them`,
          );
        const period = r.number(C.noticePeriod);
        const unitText = r.text(C.noticePeriodUnit);
        const known = units;
        let unit = (
          unitText === undefined ? undefined : known.find((u) => u.toLowerCase() === unitText.toLowerCase())
        ) as Unit | undefined;
        if (unitText !== undefined && unit === undefined) {
          r.error(
            C.noticePeriodUnit,
            'unknown-unit',
            `"${unitText}" is not a notice period unit${offerNames(unitText, known)}`,
          );
        } else if (unit === undefined && period !== undefined) {
          r.error(
            C.noticePeriodUnit,
            'required',
            `a notice period of ${period} needs a unit; choose Months, Weeks or Days`,
          );
        } else if (unit === undefined) {
          unit = 'None';
        } else if (unit !== 'None' && period === undefined) {
          r.error(
            C.noticePeriod,
            'required',
            `a notice period in ${unit.toLowerCase()} needs a number; fill it in, or set the unit to None`,
          );
        }
        if (period !== undefined && !(Number.isInteger(period) && period >= 0))
          r.error(
            C.noticePeriod,
            'not-whole',
            `a notice period is a whole number, 0 or more; ${period} is not`,
          );
        const body: CreateContract = {
          ThirdPartyGuid: thirdParty ?? '',
          Name: name ?? '',
          Services: r.list(C.services),
          StartDate: start,
          EndDate: end,
          NoticePeriod: period,
          NoticePeriodUnit: unit ?? 'None',
          CustomFields: readCustomFields(fields, row, r),
        };
        return r.prepared('contract-create', body, bodyColumns, body);
      },
      call: (body) => ({
        operation: 'contract-create',
        body,
        columnOf: { ...bodyColumns, CustomFields: customColumns(fields, body.CustomFields) },
      }),
      done: () => 'Created',
      find: (body, rs, taken, sent) =>
        findUnique(
          rs,
          taken,
          { field: 'DateCreated', since: sent.at },
          (rec) =>
            String(rec.ThirdPartyGuid).toLowerCase() === body.ThirdPartyGuid.toLowerCase() &&
            rec.Name === body.Name &&
            (body.StartDate === undefined || str(rec, 'StartDate')?.slice(0, 10) === body.StartDate) &&
            (body.EndDate === undefined || str(rec, 'EndDate')?.slice(0, 10) === body.EndDate),
        ),
    };
  },
};
