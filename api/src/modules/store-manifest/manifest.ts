// A store's web app manifest (ARCHITECTURE "Local-first web"): the store installs as its own app,
// named and coloured like the store, with `id`, `start_url` and `scope` under /store/{slug}/.
import { DEFAULT_COLORS, isHexColor } from '@store/shared';

/** The store fields a manifest and its icons use. */
export interface ManifestStore {
  slug: string;
  name: string;
  description: string | null;
  logoUrl: string | null;
  theme: string;
  primaryColor: string;
}

/** The page backgrounds of web/src/styles.css, the splash screen's background. */
export const BACKGROUNDS = { dark: '#0b1020', light: '#f8fafc' } as const;

/** The icons every store manifest lists, each served at /store/{slug}/{file}. */
export const STORE_ICONS = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  { file: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
] as const;

/** One of the store's icons. */
export type StoreIcon = (typeof STORE_ICONS)[number];

/** A web app manifest. */
export interface WebManifest {
  id: string;
  name: string;
  short_name: string;
  description?: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  categories: string[];
  icons: { src: string; sizes: string; type: 'image/png'; purpose: 'any' | 'maskable' }[];
}

/** The store's primary colour when it is a hex colour, else the default one. */
export function storeColour(store: Pick<ManifestStore, 'primaryColor'>): string {
  return isHexColor(store.primaryColor) ? store.primaryColor : DEFAULT_COLORS.primary;
}

/** The name under the installed icon: the store's name cut to 12 characters. */
export function shortName(name: string): string {
  const characters = [...name];
  return characters.length > 12 ? characters.slice(0, 12).join('').trim() : name;
}

/**
 * The manifest of a store. URLs are root-relative (the manifest is served from the store's own
 * origin); `iconVersion` changes with the icons' look, so an installed app fetches new ones.
 */
export function buildStoreManifest(store: ManifestStore, iconVersion: string): WebManifest {
  const base = `/store/${store.slug}/`;
  return {
    id: base,
    name: store.name,
    short_name: shortName(store.name),
    ...(store.description ? { description: store.description } : {}),
    start_url: base,
    scope: base,
    display: 'standalone',
    theme_color: storeColour(store),
    background_color: store.theme === 'light' ? BACKGROUNDS.light : BACKGROUNDS.dark,
    categories: ['shopping'],
    icons: STORE_ICONS.map((icon) => ({
      src: `${base}${icon.file}?v=${iconVersion}`,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.purpose,
    })),
  };
}
