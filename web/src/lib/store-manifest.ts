// A web manifest for each store (ARCHITECTURE "Local-first web"): while a store page is shown
// the page links a manifest built from the store's name, colours and logo, so the store installs
// as its own app with start_url and scope /store/{slug}/. The app's manifest is restored after.
import { DEFAULT_COLORS, isHexColor, type PublicStore } from '@store/shared';
import { useEffect } from 'react';
import { renderStoreIcon } from './store-icon.ts';

/** The dark and light page backgrounds of styles.css, used as the splash background. */
const BACKGROUNDS = { dark: '#0b1020', light: '#f8fafc' } as const;
const ICON_SIZES = [192, 512] as const;

/** The store fields a manifest uses. */
export type ManifestStore = Pick<
  PublicStore,
  'name' | 'slug' | 'description' | 'logoUrl' | 'theme' | 'primaryColor'
>;

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
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Builds a store's manifest; URLs are absolute because a blob: manifest has no useful base. */
export function buildStoreManifest(
  store: ManifestStore,
  origin: string,
  icons: Partial<Record<(typeof ICON_SIZES)[number], string>> = {},
): WebManifest {
  const scope = `${origin}/store/${store.slug}/`;
  const shortName =
    [...store.name].length > 12 ? [...store.name].slice(0, 12).join('').trim() : store.name;
  return {
    id: `/store/${store.slug}/`,
    name: store.name,
    short_name: shortName,
    ...(store.description ? { description: store.description } : {}),
    start_url: scope,
    scope,
    display: 'standalone',
    theme_color: isHexColor(store.primaryColor) ? store.primaryColor : DEFAULT_COLORS.primary,
    background_color: BACKGROUNDS[store.theme === 'light' ? 'light' : 'dark'],
    icons: ICON_SIZES.flatMap((size) => {
      const src = icons[size] ?? `${origin}/pwa-${size}x${size}.png`;
      const icon = { src, sizes: `${size}x${size}`, type: 'image/png' };
      return size === 512 ? [icon, { ...icon, purpose: 'maskable' }] : [icon];
    }),
  };
}

/** Links the store's manifest while mounted; the app's own manifest comes back on unmount. */
export function useStoreManifest(store: ManifestStore | undefined): void {
  const key = store
    ? [
        store.slug,
        store.name,
        store.description,
        store.logoUrl,
        store.theme,
        store.primaryColor,
      ].join('|')
    : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key captures every field used.
  useEffect(() => {
    if (!store) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const added = !link;
    if (!link) {
      // Note: the dev server links no manifest; the built app does.
      link = document.head.appendChild(document.createElement('link'));
      link.rel = 'manifest';
    }
    const original = link.getAttribute('href');
    let url: string | undefined;
    let live = true;
    void Promise.all(ICON_SIZES.map((size) => renderStoreIcon(store, size))).then(
      ([small, large]) => {
        if (!live) return;
        const manifest = buildStoreManifest(store, window.location.origin, {
          192: small,
          512: large,
        });
        url = URL.createObjectURL(
          new Blob([JSON.stringify(manifest)], { type: 'application/manifest+json' }),
        );
        if (link) link.href = url;
      },
    );
    return () => {
      live = false;
      if (added) link.remove();
      else if (original !== null) link.setAttribute('href', original);
      if (url) URL.revokeObjectURL(url);
    };
  }, [key]);
}
