import { webDarkTheme, webLightTheme, type Theme } from '@fluentui/react-components';

export type ThemeName = 'light' | 'dark';

/** Relative luminance of a #rrggbb colour (WCAG), 0 black to 1 white. */
function luminance(hex: string): number | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return null;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Office gives a theme as colours, not a name: a dark body background means a dark theme. Without Office
 * (the preview) the browser's colour-scheme preference decides.
 */
export function themeName(officeBackground: string | undefined, prefersDark: boolean): ThemeName {
  const l = officeBackground ? luminance(officeBackground) : null;
  if (l !== null) return l < 0.4 ? 'dark' : 'light';
  return prefersDark ? 'dark' : 'light';
}

export function fluentTheme(name: ThemeName): Theme {
  return name === 'dark' ? webDarkTheme : webLightTheme;
}
