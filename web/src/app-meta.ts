// Names and colours shared by the web manifest (vite.config.ts) and the app shell.

/** The product's display name. */
export const APP_NAME = 'USDC Storefront';
/** Short name shown under the installed icon. */
export const APP_SHORT_NAME = 'Storefront';
/** One-line pitch used in the manifest and the home page (built once for every chain: it names none). */
export const APP_DESCRIPTION =
  'Branded stores and a hosted checkout that take USDC, with no accounts and a 2% fee.';
/** Default brand colours (docs/screens.md#themes); the CSS variables in styles.css repeat them. */
export const THEME_COLOURS = {
  primary: '#6366f1',
  secondary: '#8b5cf6',
  accent: '#06b6d4',
} as const;
/** Page background of the default dark theme. */
export const DARK_BACKGROUND = '#0b1020';
