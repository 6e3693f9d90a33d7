import { catalog } from '../../../src/catalog';
import { groupDatasets, needsGuid } from '../../../src/taskpane/datasets/groups';

test('datasets are grouped by area in catalogue order, v3 risks first and the old risk dataset last', () => {
  const groups = groupDatasets(catalog.datasets, '');
  expect(groups[0]!.area).toBe('Risks');
  const risks = groups[0]!.datasets.map((d) => d.id);
  expect(risks[0]).toBe('risk');
  expect(risks[risks.length - 1]).toBe('risiko');
  expect(groups.reduce((n, g) => n + g.datasets.length, 0)).toBe(catalog.datasets.length);
});

test('the search matches every word against title, description, area and id', () => {
  const groups = groupDatasets(catalog.datasets, 'audit  finding');
  expect(groups.map((g) => g.area)).toEqual(['Audits']);
  expect(groups[0]!.datasets.map((d) => d.id)).toEqual(['auditfinding', 'auditseverity', 'auditfollowup']);
  expect(groupDatasets(catalog.datasets, 'INCIDENTS guid').flatMap((g) => g.datasets.map((d) => d.id))).toContain('incidents');
  expect(groupDatasets(catalog.datasets, 'no such thing')).toEqual([]);
});

test('datasets of one parent record need a GUID from the user', () => {
  expect(needsGuid(catalog.dataset('formresults'))).toBe(true);
  expect(needsGuid(catalog.dataset('risk'))).toBe(false);
});
