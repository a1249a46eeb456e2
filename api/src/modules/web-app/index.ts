// Routes: GET /* (not /api): the built web app, for deployments where the API serves it. Text
// files (scripts, styles, HTML, manifests, SVG) go gzipped to clients that accept it, compressed
// once per file version and kept in memory.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { Elysia } from 'elysia';
import { decodePath } from '../../http/body-limit.ts';
import { loadPageHints } from './page-hints.ts';

/** Files worth compressing: text. Note: images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|webmanifest|txt|map)$/;
const HTML_TYPE = 'text/html; charset=utf-8';
/** Below this a gzip member's overhead eats the saving. */
const MIN_COMPRESS_BYTES = 1024;

/** Serves files of `distDir`, and `index.html` for any other path (client-side routes). */
export const webAppModule = (distDir: string) => {
  const root = normalize(distDir);
  const index = join(root, 'index.html');
  if (!existsSync(index)) throw new Error(`\`WEB_DIST\` has no index.html: ${distDir}`);
  // Note: keyed by path and modification time, so a rebuilt file is compressed again.
  const gzipped = new Map<string, { mtimeMs: number; body: Uint8Array }>();
  const gzipOf = (file: string, mtimeMs: number): Uint8Array => {
    const cached = gzipped.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.body;
    const body = Bun.gzipSync(readFileSync(file));
    gzipped.set(file, { mtimeMs, body });
    return body;
  };
  const pageHints = loadPageHints(root);
  const indexHtml = readFileSync(index, 'utf8');
  return new Elysia({ name: 'web-app' }).get('/*', ({ path, request, set }) => {
    if (path.startsWith('/api/')) {
      set.status = 404;
      return { error: { code: 'not_found', message: 'Not found' } };
    }
    const file = normalize(join(root, decodePath(path)));
    // Note: the build manifest (dist/.vite) is for this server, not for browsers.
    const isFile =
      file.startsWith(root) &&
      !path.startsWith('/.vite/') &&
      existsSync(file) &&
      statSync(file).isFile();
    // Note: the service worker and the HTML must be revalidated; hashed assets never change.
    set.headers['cache-control'] = path.startsWith('/assets/')
      ? 'public, max-age=31536000, immutable'
      : 'no-cache';
    const acceptsGzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
    const hints = isFile ? '' : (pageHints?.(path) ?? '');
    if (hints) {
      // Note: a page with hints is the shell with a few links more, gzipped like the shell. A
      // Blob of type text/html, so the security headers' hook sees a page (it gets the page's
      // Content-Security-Policy, as the shell does).
      const html = indexHtml.replace('</head>', `${hints}</head>`);
      set.headers.vary = 'Accept-Encoding';
      if (!acceptsGzip) return new Blob([html], { type: HTML_TYPE });
      set.headers['content-encoding'] = 'gzip';
      return new Blob([Bun.gzipSync(html)], { type: HTML_TYPE });
    }
    const served = isFile ? file : index;
    const stats = statSync(served);
    if (!COMPRESSIBLE.test(served) || stats.size < MIN_COMPRESS_BYTES) return Bun.file(served);
    set.headers.vary = 'Accept-Encoding';
    if (!acceptsGzip) return Bun.file(served);
    set.headers['content-encoding'] = 'gzip';
    return new Blob([gzipOf(served, stats.mtimeMs)], { type: Bun.file(served).type });
  });
};
