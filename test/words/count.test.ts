import { counted } from '../../src/words/count';

test('a count says its noun in the singular for one, grouped as en-US', () => {
  expect(counted(1, 'row')).toBe('1 row');
  expect(counted(0, 'row')).toBe('0 rows');
  expect(counted(1, 'entry', 'entries')).toBe('1 entry');
  expect(counted(12345, 'entry', 'entries')).toBe('12,345 entries');
});
