// Routes: GET /api/stores, POST /api/stores, GET /api/stores/{slugOrId}, PUT /api/stores/{id}
import { CreateStoreSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../app.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { ListStoresQuery, UpdateStoreBody } from './model.ts';
import {
  createStore,
  getStoreForViewer,
  listActiveStores,
  listOwnStores,
  updateStore,
} from './service.ts';

const tags = ['stores'];

/** Store listing and lookup for everyone; creation and edits for the signed-in owner. */
export const storesModule = ({ db }: AppDeps) => {
  const signedIn = signedInGuard(db);
  return new Elysia({ name: 'stores' })
    .use(sessionPlugin(db))
    .get(
      '/api/stores',
      async ({ query, requireUser }) => {
        if (query.mine !== 'true') return listActiveStores(db);
        return listOwnStores(db, (await requireUser()).id);
      },
      {
        query: ListStoresQuery,
        detail: {
          tags,
          summary: 'Active stores with their product count; `mine=true`: your own stores',
        },
      },
    )
    .post(
      '/api/stores',
      async ({ body, requireUser, set }) => {
        const store = await createStore(db, (await requireUser()).id, body);
        set.status = 201;
        return store;
      },
      {
        transform: signedIn,
        body: CreateStoreSchema,
        detail: { tags, summary: 'Create a store you own' },
      },
    )
    .get(
      '/api/stores/:id',
      async ({ params, currentUser }) =>
        getStoreForViewer(db, params.id, (await currentUser())?.id),
      { detail: { tags, summary: 'A store by id (UUID) or slug' } },
    )
    .put(
      '/api/stores/:id',
      async ({ params, body, requireUser }) =>
        updateStore(db, (await requireUser()).id, params.id, body),
      {
        transform: signedIn,
        body: UpdateStoreBody,
        detail: { tags, summary: 'Edit your store (send `updatedAt` to detect stale edits)' },
      },
    );
};
