// The store a manifest or an icon is for: an active store by slug, with the fields they show.
import { SLUG_PATTERN } from '@store/shared';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';
import type { ManifestStore } from './manifest.ts';

/** The active store `slug`; 404 for an unknown, inactive or malformed slug alike. */
export async function findInstallableStore(db: Database, slug: string): Promise<ManifestStore> {
  if (!SLUG_PATTERN.test(slug)) throw new AppError('not_found', STORE_NOT_FOUND);
  const [store] = await db
    .select({
      slug: stores.slug,
      name: stores.name,
      description: stores.description,
      logoUrl: stores.logoUrl,
      theme: stores.theme,
      primaryColor: stores.primaryColor,
    })
    .from(stores)
    .where(and(eq(stores.slug, slug), eq(stores.isActive, true)))
    .limit(1);
  if (!store) throw new AppError('not_found', STORE_NOT_FOUND);
  return store;
}
