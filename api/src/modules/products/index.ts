// Routes: GET /api/stores/{id}/products, POST /api/products, GET/PUT/DELETE /api/products/{id},
// PUT /api/products/{id}/file (a file product's file: its own bytes as the body).
import { randomBytes } from 'node:crypto';
import {
  CreateProductSchema,
  DeletedResponseSchema,
  DIGITAL_FILE,
  DIGITAL_FILE_MESSAGES,
  DIGITAL_PRODUCT_MESSAGES,
  ProductSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { contract } from '../../http/openapi.ts';
import { RATE_LIMIT_MESSAGES, type RateLimit, RateLimiter } from '../../http/rate-limit.ts';
import { sessionPlugin } from '../../http/session.ts';
import { type ObjectStore, objectStoreFor } from '../../uploads/storage.ts';
import { checkWebhookUrlForm } from '../../webhooks/url-safety.ts';
import { readCapped } from '../uploads/index.ts';
import { publicOrigin, withX402Url } from '../x402/model.ts';
import { contentMatches, fileNameOf, fileTypeOf } from './file.ts';
import { ListProductsQuery, UpdateProductBody } from './model.ts';
import {
  createProduct,
  deleteProduct,
  getOwnProductOrThrow,
  getProductForViewer,
  listStoreProducts,
  setProductFile,
  updateProduct,
} from './service.ts';

const tags = ['products'];

/** The catalogue: published products for shoppers, the whole catalogue for its owner. */
export const productsModule = (
  { db, config }: AppDeps,
  files: ObjectStore = objectStoreFor(config),
) => {
  const limiter = new RateLimiter(db);
  // Note: a file counts as an upload: one hourly allowance per account for images and files.
  const perAccount: RateLimit = {
    bucket: 'uploads:account',
    max: config.uploadsPerHour,
    windowMs: 60 * 60 * 1000,
  };
  // Note: a digital product's payable URL is absolute (PUBLIC_URL, or the request's origin).
  const absolute = <T extends { x402Url: string | null }>(request: Request, product: T) =>
    withX402Url(product, publicOrigin(config, request));
  /**
   * An API product's upstream is an outbound request as a webhook is: https (http only where
   * private webhook targets are allowed, as locally), no credentials; where it resolves is checked
   * on each call (x402/service.ts). Refused here so the merchant hears it before an agent pays.
   */
  const checkUpstream = (body: { digital?: { kind: string; upstreamUrl?: string } | null }) => {
    const url = body.digital?.kind === 'api' ? body.digital.upstreamUrl : undefined;
    if (url && checkWebhookUrlForm(url, config.allowPrivateWebhooks))
      throw new AppError('validation_failed', DIGITAL_PRODUCT_MESSAGES.upstreamHttps);
  };
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
            (await currentUser()) ?? undefined,
            query.published === 'true',
          )
        ).map((product) => absolute(request, product)),
      {
        query: ListProductsQuery,
        access: 'optional',
        ...contract({
          tags,
          summary: "A store's published products (its owner also sees unpublished ones)",
          ok: { 200: v.array(ProductSchema) },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/products',
      async ({ body, set, request, user }) => {
        checkUpstream(body);
        const product = await createProduct(db, user, body);
        set.status = 201;
        return absolute(request, product);
      },
      {
        body: CreateProductSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Add a product to one of your stores',
          ok: { 201: ProductSchema },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/products/:id',
      async ({ params, currentUser, request }) =>
        absolute(
          request,
          await getProductForViewer(db, params.id, (await currentUser()) ?? undefined),
        ),
      {
        access: 'optional',
        ...contract({
          tags,
          summary: 'A product (unpublished ones for their owner only)',
          ok: { 200: ProductSchema },
          errors: ['not_found'],
        }),
      },
    )
    .put(
      '/api/products/:id',
      async ({ params, body, request, user }) => {
        checkUpstream(body);
        return absolute(request, await updateProduct(db, user, params.id, body));
      },
      {
        body: UpdateProductBody,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Edit your product (send `updatedAt` to detect stale edits)',
          ok: { 200: ProductSchema },
          errors: ['not_found', 'stale_version'],
        }),
      },
    )
    .put(
      '/api/products/:id/file',
      async ({ params, query, request, user, set }) => {
        await getOwnProductOrThrow(db, user, params.id, 'operate');
        const type = fileTypeOf(request.headers.get('content-type'));
        const name = fileNameOf(typeof query.name === 'string' ? query.name : undefined, type);
        // Note: counted before the body is read: a refused upload costs a row, never a read.
        await limiter.enforce(set, [
          { limit: perAccount, key: user.id, reason: RATE_LIMIT_MESSAGES.accountUploads },
        ]);
        const bytes = await readCapped(
          request,
          DIGITAL_FILE.maxBytes,
          DIGITAL_FILE_MESSAGES.tooLarge,
        );
        if (bytes.byteLength === 0)
          throw new AppError('validation_failed', DIGITAL_FILE_MESSAGES.empty);
        if (!contentMatches(type, bytes))
          throw new AppError('unsupported_media_type', DIGITAL_FILE_MESSAGES.content);
        // Note: a fresh random key per upload: a replaced file's old links never serve the new one.
        const key = `${randomBytes(16).toString('hex')}/file`;
        await files.put(key, bytes, type);
        return absolute(
          request,
          await setProductFile(db, user, params.id, {
            key,
            name,
            type,
            bytes: bytes.byteLength,
          }),
        );
      },
      {
        // Note: the body is the file itself; nothing parses it before the route has checked it.
        parse: 'none',
        access: 'merchant',
        ...contract({
          tags,
          summary: `Make your product a file product: upload its file (${DIGITAL_FILE.hint})`,
          description:
            'The body is the file itself with its Content-Type; `?name=` is the file name buyers get (letters, digits, spaces, . _ - ( ), at most 120 characters). The type is checked by content. Once an order of the product is paid, the shopper gets a download link that expires (GET /api/orders/{id}/downloads with the buyer token); an agent paying the product’s `x402Url` gets the file itself. Uploading again replaces the file; making the product an API or physical drops it.',
          ok: { 200: ProductSchema },
          errors: [
            'not_found',
            'payload_too_large',
            'unsupported_media_type',
            'validation_failed',
            'rate_limited',
          ],
        }),
      },
    )
    .delete('/api/products/:id', async ({ params, user }) => deleteProduct(db, user, params.id), {
      access: 'merchant',
      ...contract({
        tags,
        summary: 'Delete your product',
        ok: { 200: DeletedResponseSchema },
        errors: ['not_found'],
      }),
    });
};
