// Request schemas and response shapes of the store routes.
import { UpdateStoreSchema } from '@store/shared';
import * as v from 'valibot';
import { UpdatedAtSchema } from '../../http/versions.ts';

/** Query of GET /api/stores: `mine=true` lists the signed-in merchant's stores. */
export const ListStoresQuery = v.object({
  mine: v.optional(v.picklist(['true', 'false'], 'mine must be true or false')),
});

/** Body of PUT /api/stores/{id}: the store form's fields (any subset) and the version edited. */
export const UpdateStoreBody = v.object({
  ...UpdateStoreSchema.entries,
  updatedAt: UpdatedAtSchema,
});
/** A validated store update body. */
export type UpdateStoreBody = v.InferOutput<typeof UpdateStoreBody>;

/** A store as everyone may see it (SPEC §7 fields, the version and the product count). */
export interface PublicStore {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  domain: string | null;
  logoUrl: string | null;
  paymentAddress: string | null;
  theme: string;
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
  ownerId: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Published products for the public; all products in the owner's view. */
  productCount: number;
}

/** A store as its owner sees it: also where its order webhooks go (never the signing secret). */
export interface OwnerStore extends PublicStore {
  webhookUrl: string | null;
}

/** Message of a slug that another store already has. */
export const SLUG_TAKEN = 'That store slug is already taken; choose another';
/** Message of an unknown store (or another merchant's). */
export const STORE_NOT_FOUND = 'Store not found';
