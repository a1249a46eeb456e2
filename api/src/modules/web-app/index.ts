// Routes: GET /* (not /api): the built web app, for deployments where the API serves it.
import { existsSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { Elysia } from 'elysia';

/** Serves files of `distDir`, and `index.html` for any other path (client-side routes). */
export const webAppModule = (distDir: string) => {
  const root = normalize(distDir);
  const index = join(root, 'index.html');
  if (!existsSync(index)) throw new Error(`\`WEB_DIST\` has no index.html: ${distDir}`);
  return new Elysia({ name: 'web-app' }).get('/*', ({ path, set }) => {
    if (path.startsWith('/api/')) {
      set.status = 404;
      return { error: { code: 'not_found', message: 'Not found' } };
    }
    const file = normalize(join(root, decodeURIComponent(path)));
    const isFile = file.startsWith(root) && existsSync(file) && statSync(file).isFile();
    // Note: the service worker and the HTML must be revalidated; hashed assets never change.
    set.headers['cache-control'] = path.startsWith('/assets/')
      ? 'public, max-age=31536000, immutable'
      : 'no-cache';
    return Bun.file(isFile ? file : index);
  });
};
