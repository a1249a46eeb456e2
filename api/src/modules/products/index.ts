// Routes: GET /api/stores/{id}/products, POST /api/products, GET/PUT/DELETE /api/products/{id}
import { CreateProductSchema, DeletedResponseSchema, ProductResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract } from '../../http/openapi.ts';
import { sessionPlugin } from '../../http/session.ts';
import { publicOrigin, withX402Url } from '../x402/model.ts';
import { ListProductsQuery, UpdateProductBody } from './model.ts';
import {
  createProduct,
  deleteProduct,
  getProductForViewer,
  listStoreProducts,
  updateProduct,
} from './service.ts';

const tags = ['products'];

/** The catalogue: published products for shoppers, the whole catalogue for its owner. */
export const productsModule = ({ db, config }: AppDeps) => {
  // Note: a digital product's payable URL is absolute (PUBLIC_URL, or the request's origin).
  const absolute = <T extends { x402Url: string | null }>(request: Request, product: T) =>
    withX402Url(product, publicOrigin(config, request));
  return new Elysia({ name: 'products' })
    .use(sessionPlugin(db))
    .use(accessPlugin(db))
    .get(
      '/api/stores/:id/products',
      async ({ params, query, currentUser, request }) =>
        (
          await listStoreProducts(
            db,
            params.id,
            (
              await currentUser()
            )?.id,
            query.published === 'true',
          )
        ).map((product) => absolute(request, product)),
      {
        query: ListProductsQuery,
        access: 'optional',
        ...contract({
          tags,
          summary: "A store's published products (its owner also sees unpublished ones)",
          ok: { 200: v.array(ProductResponseSchema) },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/products',
      async ({ body, set, request, user }) => {
        const product = await createProduct(db, user.id, body);
        set.status = 201;
        return absolute(request, product);
      },
      {
        body: CreateProductSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Add a product to one of your stores',
          ok: { 201: ProductResponseSchema },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/products/:id',
      async ({ params, currentUser, request }) =>
        absolute(request, await getProductForViewer(db, params.id, (await currentUser())?.id)),
      {
        access: 'optional',
        ...contract({
          tags,
          summary: 'A product (unpublished ones for their owner only)',
          ok: { 200: ProductResponseSchema },
          errors: ['not_found'],
        }),
      },
    )
    .put(
      '/api/products/:id',
      async ({ params, body, request, user }) =>
        absolute(request, await updateProduct(db, user.id, params.id, body)),
      {
        body: UpdateProductBody,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Edit your product (send `updatedAt` to detect stale edits)',
          ok: { 200: ProductResponseSchema },
          errors: ['not_found', 'stale_version'],
        }),
      },
    )
    .delete(
      '/api/products/:id',
      async ({ params, user }) => deleteProduct(db, user.id, params.id),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Delete your product',
          ok: { 200: DeletedResponseSchema },
          errors: ['not_found'],
        }),
      },
    );
};
