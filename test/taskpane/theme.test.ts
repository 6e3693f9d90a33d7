import { themeName } from '../../src/taskpane/theme';

test("a dark Office body colour gives the dark theme whatever the browser prefers", () => {
  expect(themeName('#262626', false)).toBe('dark');
  expect(themeName('#1f1f1f', false)).toBe('dark');
});

test("a light Office body colour gives the light theme whatever the browser prefers", () => {
  expect(themeName('#FFFFFF', true)).toBe('light');
  expect(themeName('#e6e6e6', true)).toBe('light');
});

test('without an Office theme (the preview) the colour-scheme preference decides', () => {
  expect(themeName(undefined, true)).toBe('dark');
  expect(themeName(undefined, false)).toBe('light');
  expect(themeName('not a colour', true)).toBe('dark');
});
