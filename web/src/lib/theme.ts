// Store theming (SPEC §2): the light/dark class and the three colours as CSS variables on <html>
// while a store page is shown, and the app's own look back when the page goes away.
import { DEFAULT_COLORS, DEFAULT_THEME, isHexColor, type Theme } from '@store/shared';
import { useEffect } from 'react';

/** A store's (or an external store's) look. */
export interface StoreTheme {
  theme?: Theme | null;
  primaryColor?: string | null;
  secondaryColor?: string | null;
  accentColor?: string | null;
}

const VARIABLES = [
  ['--primary', 'primaryColor', DEFAULT_COLORS.primary],
  ['--secondary', 'secondaryColor', DEFAULT_COLORS.secondary],
  ['--accent', 'accentColor', DEFAULT_COLORS.accent],
] as const;

// Note: colours come from strangers (store settings, URL parameters); only hex colours reach CSS.
function colourOr(value: string | null | undefined, fallback: string): string {
  return value && isHexColor(value) ? value : fallback;
}

/** Applies a theme to `root` and returns a function that restores what was there before. */
export function applyStoreTheme(
  theme: StoreTheme,
  root: HTMLElement = document.documentElement,
): () => void {
  const wasDark = root.classList.contains('dark');
  const wasLight = root.classList.contains('light');
  const previous = VARIABLES.map(([name]) => root.style.getPropertyValue(name));
  const dark = (theme.theme ?? DEFAULT_THEME) === 'dark';
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
  for (const [name, key, fallback] of VARIABLES) {
    root.style.setProperty(name, colourOr(theme[key], fallback));
  }
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const previousMeta = meta?.content;
  if (meta) meta.content = colourOr(theme.primaryColor, DEFAULT_COLORS.primary);
  return () => {
    root.classList.toggle('dark', wasDark);
    root.classList.toggle('light', wasLight);
    VARIABLES.forEach(([name], index) => {
      const value = previous[index];
      if (value) root.style.setProperty(name, value);
      else root.style.removeProperty(name);
    });
    if (meta && previousMeta !== undefined) meta.content = previousMeta;
  };
}

/** Applies the theme while the calling component is mounted; undefined leaves the page as it is. */
export function useStoreTheme(theme: StoreTheme | undefined): void {
  const key = theme
    ? [theme.theme, theme.primaryColor, theme.secondaryColor, theme.accentColor].join('|')
    : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key captures every field used.
  useEffect(() => (theme ? applyStoreTheme(theme) : undefined), [key]);
}
