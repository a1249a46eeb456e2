// Routes: GET /store/{slug}/manifest.webmanifest, GET /store/{slug}/icon-192.png,
// /icon-512.png and /icon-maskable-512.png: each active store installs as its own app, from the
// server (the store pages link this manifest; any browser can read it without running the app).
import { createHash } from 'node:crypto';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { contract } from '../../http/openapi.ts';
import { objectStoreFor } from '../../uploads/storage.ts';
import { iconMark, iconVersion, renderStoreIcon } from './icon.ts';
import { buildStoreManifest, STORE_ICONS } from './manifest.ts';
import { findInstallableStore } from './service.ts';

/** A body with its strong ETag, answered 304 when the client already holds it. */
function cachedResponse(
  request: Request,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Response {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const all = { ...headers, etag };
  const held = request.headers.get('if-none-match');
  if (held?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))
    return new Response(null, { status: 304, headers: all });
  return new Response(body, { headers: all });
}

/** Each store's web app manifest and its icons. */
export const storeManifestModule = ({ db, config }: AppDeps) => {
  const uploads = objectStoreFor(config);
  /** The store's uploaded logo (PNG), when its logo is one and the store still has it. */
  const uploadedLogo = async (store: { name: string; logoUrl: string | null }) => {
    const mark = iconMark(store);
    if (mark.kind !== 'image') return undefined;
    const key = mark.path.replace(/^\/api\/uploads\//, '');
    return (await uploads.get(key).catch(() => null)) ?? undefined;
  };
  const app = new Elysia({ name: 'store-manifest' }).get(
    '/store/:slug/manifest.webmanifest',
    async ({ params, request }) => {
      const store = await findInstallableStore(db, params.slug);
      const manifest = buildStoreManifest(store, iconVersion(store));
      // Note: revalidated on every read (an ETag makes that cheap), so a renamed or recoloured
      // store reaches installed apps at their next manifest check.
      return cachedResponse(request, JSON.stringify(manifest), {
        'content-type': 'application/manifest+json',
        'cache-control': 'no-cache',
      });
    },
    {
      ...contract({
        tags: ['stores'],
        summary: "The store's web app manifest (install the store as its own app)",
        ok: {
          200: { mediaType: 'application/manifest+json', description: 'The web app manifest' },
          304: 'Not modified',
        },
        errors: ['not_found'],
      }),
    },
  );
  for (const icon of STORE_ICONS) {
    app.get(
      `/store/:slug/${icon.file}`,
      async ({ params, request }) => {
        const store = await findInstallableStore(db, params.slug);
        // Note: the manifest links icons with `?v=` of their look, so a day's caching is safe.
        const logo = await uploadedLogo(store);
        return cachedResponse(request, renderStoreIcon(store, icon, logo), {
          'content-type': 'image/png',
          'cache-control': 'public, max-age=86400',
        });
      },
      {
        ...contract({
          tags: ['stores'],
          summary: `The store's ${icon.size}×${icon.size} ${icon.purpose === 'maskable' ? 'maskable ' : ''}install icon (PNG)`,
          ok: { 200: { mediaType: 'image/png', description: 'The icon' }, 304: 'Not modified' },
          errors: ['not_found'],
        }),
      },
    );
  }
  return app;
};
