// Each store installs as its own app (ARCHITECTURE "Local-first web"): while a store page is shown
// the page links the store's web manifest, which the server builds from the store's name, colours
// and logo (api/src/modules/store-manifest: `start_url` and `scope` /store/{slug}/, its own icons).
// The app's own manifest (and its home-screen icon) come back when the page goes away.
import { useEffect } from 'react';

/** Where the server answers a store's web manifest. */
export function storeManifestUrl(slug: string): string {
  return `/store/${encodeURIComponent(slug)}/manifest.webmanifest`;
}

/** The store's full-bleed icon, for the home-screen icon of browsers that read no manifest. */
export function storeTouchIconUrl(slug: string): string {
  return `/store/${encodeURIComponent(slug)}/icon-maskable-512.png`;
}

/** Points `<link rel>` at `href` (adding the link when the page has none); returns the undo. */
function pointLink(doc: Document, rel: string, href: string): () => void {
  let link = doc.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  const added = !link;
  if (!link) {
    // Note: the Vite dev server's page links no manifest; the built one does.
    link = doc.head.appendChild(doc.createElement('link'));
    link.rel = rel;
  }
  const original = link.getAttribute('href');
  link.setAttribute('href', href);
  const element = link;
  return () => {
    if (added) element.remove();
    else if (original !== null) element.setAttribute('href', original);
  };
}

/**
 * Links the store's manifest (and home-screen icon) in `doc`; returns the function that puts the
 * app's own back.
 */
export function linkStoreManifest(slug: string, doc: Document = document): () => void {
  const undo = [
    pointLink(doc, 'manifest', storeManifestUrl(slug)),
    pointLink(doc, 'apple-touch-icon', storeTouchIconUrl(slug)),
  ];
  return () => {
    for (const step of undo.reverse()) step();
  };
}

/**
 * Links the manifest of the store while mounted, once the store is known (an unknown store has
 * none to link); the app's own comes back on unmount.
 */
export function useStoreManifest(store: { slug: string } | undefined): void {
  const slug = store?.slug;
  useEffect(() => (slug ? linkStoreManifest(slug) : undefined), [slug]);
}
