// Store theming (docs/screens.md#themes): the light/dark class and the three colours as CSS
// variables on <html> while a store page is shown, and the app's own look back when the page goes
// away. The accent colours text (prices, the payment amount, links), so it is adjusted to WCAG AA
// contrast on the theme's backgrounds; button text on the primary colour is white or dark,
// whichever reads.
import { DEFAULT_COLORS, DEFAULT_THEME, isHexColor, type Theme } from '@store/shared';
import { useEffect } from 'react';
import { AA_TEXT_CONTRAST, contrastRatio, readableTextColour, textOn } from './contrast.ts';

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
/** Variables set from the colours: the primary colour behind text, and that text's colour. */
const DERIVED = ['--primary-strong', '--on-primary'] as const;

/**
 * The backgrounds text sits on in each theme (--surface, --bg, --surface-2 of styles/base.css).
 * Note: kept in step with the stylesheet by hand; text must read on the darkest (light theme) or
 * lightest (dark theme) of them.
 */
export const THEME_BACKGROUNDS = {
  light: ['#ffffff', '#f8fafc', '#f1f5f9'],
  dark: ['#0b1020', '#131a2e', '#1a2340'],
} as const;

/** The CSS variables of a theme: merchant colours, the accent made readable as text. */
export function themeVariables(theme: StoreTheme): Record<string, string> {
  const dark = (theme.theme ?? DEFAULT_THEME) === 'dark';
  const primary = colourOr(theme.primaryColor, DEFAULT_COLORS.primary);
  const strong = strongPrimary(primary);
  return {
    '--primary': primary,
    '--secondary': colourOr(theme.secondaryColor, DEFAULT_COLORS.secondary),
    '--accent': readableTextColour(
      colourOr(theme.accentColor, DEFAULT_COLORS.accent),
      THEME_BACKGROUNDS[dark ? 'dark' : 'light'],
    ),
    '--primary-strong': strong,
    '--on-primary': textOn(strong),
  };
}

/**
 * The primary colour as a background of text (buttons, badges): itself when white or dark text
 * reads on it at 4.5:1, else darkened just enough for white text to (#6366f1 gives 4.47:1 with
 * white and becomes #6265ef).
 */
export function strongPrimary(primary: string): string {
  if (contrastRatio('#ffffff', primary) >= AA_TEXT_CONTRAST) return primary;
  if (contrastRatio(textOn(primary), primary) >= AA_TEXT_CONTRAST) return primary;
  return readableTextColour(primary, ['#ffffff']);
}

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
  const names = [...VARIABLES.map(([name]) => name), ...DERIVED];
  const previous = names.map((name) => root.style.getPropertyValue(name));
  const dark = (theme.theme ?? DEFAULT_THEME) === 'dark';
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
  for (const [name, value] of Object.entries(themeVariables(theme))) {
    root.style.setProperty(name, value);
  }
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const previousMeta = meta?.content;
  if (meta) meta.content = colourOr(theme.primaryColor, DEFAULT_COLORS.primary);
  return () => {
    root.classList.toggle('dark', wasDark);
    root.classList.toggle('light', wasLight);
    names.forEach((name, index) => {
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
