// Routes: GET /api/openapi (the API reference page) and GET /api/openapi/reference-{version}.js
// (its script: Scalar's standalone browser bundle from the pinned npm package). Both come from our
// own origin, so the page loads no script from elsewhere and works offline; the page gets the web
// app's Content-Security-Policy with the one exception the bundle needs (see below).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Elysia } from 'elysia';
import { contentSecurityPolicy } from './security-headers.ts';

const require = createRequire(import.meta.url);
// Note: the package exports no package.json; its entry point is dist/index.js.
const PACKAGE_DIR = join(dirname(require.resolve('@scalar/api-reference')), '..');
const BUNDLE_FILE = join(PACKAGE_DIR, 'dist/browser/standalone.js');
/** The installed version, in the script's URL: a new version is a new URL, so caching is safe. */
export const API_REFERENCE_VERSION: string = JSON.parse(
  readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'),
).version;

/**
 * What the reference page allows beyond the web app's policy: inline styles. Note: the bundle
 * injects its stylesheets as <style> elements, most of them without a nonce, so `style-src` needs
 * 'unsafe-inline' on this page (an inline style can restyle the page, never run script). Scripts
 * stay 'self' only: the bundle needs neither eval nor inline script.
 */
export function apiReferencePolicy(): string {
  return contentSecurityPolicy([], { inlineStyles: true });
}

/**
 * The bundle's settings: the document from our origin, no fonts, telemetry, AI agent or MCP
 * server from Scalar's (each would reach another origin).
 */
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: false,
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: a mount point the bundle finds by its id, and the bundle's script. */
function referencePage(title: string, documentPath: string, scriptPath: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
  </head>
  <body>
    <div id="api-reference" data-url="${escapeHtml(documentPath)}" data-configuration="${escapeHtml(JSON.stringify(CONFIGURATION))}"></div>
    <script src="${escapeHtml(scriptPath)}"></script>
  </body>
</html>
`;
}

/** The page at `path` showing the document at `documentPath`, and its script beside it. */
export function apiReference(options: { title: string; path: string; documentPath: string }) {
  const scriptPath = `${options.path}/reference-${API_REFERENCE_VERSION}.js`;
  const html = referencePage(options.title, options.documentPath, scriptPath);
  // Note: compressed once, off the event loop, at the first request that accepts gzip (4 MB).
  let gzipped: Promise<Uint8Array> | undefined;
  return new Elysia({ name: 'api-reference' })
    .get(
      options.path,
      () =>
        new Response(html, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-cache',
            'content-security-policy': apiReferencePolicy(),
            'x-frame-options': 'DENY',
          },
        }),
      { detail: { hide: true } },
    )
    .get(
      scriptPath,
      async ({ request }) => {
        const headers: Record<string, string> = {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=31536000, immutable',
          vary: 'Accept-Encoding',
        };
        if (!/\bgzip\b/.test(request.headers.get('accept-encoding') ?? ''))
          return new Response(Bun.file(BUNDLE_FILE), { headers });
        gzipped ??= Bun.file(BUNDLE_FILE)
          .bytes()
          .then((bytes) => promisify(gzip)(bytes))
          .catch((error) => {
            gzipped = undefined;
            throw error;
          });
        return new Response(await gzipped, {
          headers: { ...headers, 'content-encoding': 'gzip' },
        });
      },
      { detail: { hide: true } },
    );
}
