// Request schemas of the store routes, and the store as the handlers hold it (the shared shape).
import {
  PAGE_LIMITS,
  type PublicStore as PublicStoreShape,
  type Store,
  UpdateStoreSchema,
} from '@store/shared';
import * as v from 'valibot';
import { UpdatedAtSchema } from '../../http/versions.ts';

const pageNumber = (name: string, min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
  );

/**
 * Query of GET /api/stores: `mine=true` lists the signed-in merchant's stores; the public list
 * comes in pages of `limit` (default 50, at most 100) from `offset`.
 */
export const ListStoresQuery = v.object({
  mine: v.optional(v.picklist(['true', 'false'], 'mine must be true or false')),
  limit: pageNumber('limit', 1, PAGE_LIMITS.max),
  offset: pageNumber('offset', 0, 100_000_000),
});

/** Body of PUT /api/stores/{id}: the store form's fields (any subset) and the version edited. */
export const UpdateStoreBody = v.object({
  ...UpdateStoreSchema.entries,
  updatedAt: UpdatedAtSchema,
});
/** A validated store update body. */
export type UpdateStoreBody = v.InferOutput<typeof UpdateStoreBody>;

/** The store's times, as the handlers hold them (dates; they go out as the ISO strings the schema reads). */
type WithDates<T> = Omit<T, 'createdAt' | 'updatedAt'> & { createdAt: Date; updatedAt: Date };

/** A store as everyone may see it: the shared public shape (PublicStoreSchema) with dates. */
export type PublicStore = WithDates<PublicStoreShape>;

/** A store as its team reads it: the shared shape (StoreSchema) with dates. */
export type OwnerStore = Omit<WithDates<Store>, 'verifiedAt'> & { verifiedAt: Date | null };

/** Message of a slug that another store already has. */
export const SLUG_TAKEN = 'That store slug is already taken; choose another';
/** Message of an unknown store (or another merchant's). */
export const STORE_NOT_FOUND = 'Store not found';
