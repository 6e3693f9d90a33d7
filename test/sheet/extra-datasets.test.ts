import { createCatalog } from '../../src/catalog';
import { columnSpecs, columnsOf, createRowConverter } from '../../src/sheet';
import { bindPaths } from '../catalog/bind-paths';

test("a dataset only the customer's service has loads as text columns, one per property, numbers and dates kept as text", () => {
  const cat = createCatalog({
    ...bindPaths(),
    extraDatasets: [
      {
        id: 'x-vendors',
        path: '/vendordata/v1/vendors',
        title: 'Vendors',
        records: '',
        properties: ['Name', 'Tier', 'Since'],
      },
    ],
  });
  const d = cat.dataset('x-vendors');
  expect(d.area).toBe('Other');
  const columns = columnsOf(d.record);
  expect(columns.map((c) => [c.name, c.kind])).toEqual([
    ['Name', 'text'],
    ['Tier', 'text'],
    ['Since', 'text'],
  ]);
  // Text-formatted cells: nothing typed as a number, a date or a formula.
  expect(columnSpecs(columns).every((c) => c.format === 'text')).toBe(true);
  expect(createRowConverter(columns).convert({ Name: 'Acme', Tier: '2', Since: '2024-01-31' })).toEqual([
    'Acme',
    '2',
    '2024-01-31',
  ]);
});
