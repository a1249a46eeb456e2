// Routes: GET /api/orders/{id}/downloads (a paid order's signed download links, for its shopper),
// GET /api/downloads/{orderId}/{productId}?expires=…&sig=… (the file a signed link names).
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { BUYER_TOKEN_HEADER } from '../../http/buyer-token.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { type ObjectStore, objectStoreFor } from '../../uploads/storage.ts';
import { attachment } from '../products/file.ts';
import { listDownloads, openDownload } from './service.ts';

const tags = ['downloads'];

const DownloadsSchema = v.object({
  downloads: v.array(
    v.object({
      productId: v.string(),
      title: v.string(),
      fileName: v.string(),
      fileType: v.string(),
      fileBytes: v.number(),
      url: v.string(),
      expiresAt: v.string(),
    }),
  ),
});
const downloadsDoc = registerResponseSchema('OrderDownloads', DownloadsSchema);

const LinkQuery = v.object({
  expires: v.optional(v.pipe(v.string(), v.maxLength(16))),
  sig: v.optional(v.pipe(v.string(), v.maxLength(64))),
});

/** File products delivered once paid, by links that expire. */
export const downloadsModule = (
  { db, config }: AppDeps,
  files: ObjectStore = objectStoreFor(config),
) =>
  new Elysia({ name: 'downloads' })
    .get(
      '/api/orders/:id/downloads',
      async ({ params, headers }) => listDownloads(db, params.id, headers[BUYER_TOKEN_HEADER]),
      {
        ...contract({
          tags,
          summary: "A paid order's download links (X-Buyer-Token: the order's buyer token)",
          description:
            'One signed link per file product of the order, valid for an hour (ask again for fresh ones). 404 without the order’s buyer token; 409 while the order is not paid.',
          ok: { 200: downloadsDoc },
          errors: ['not_found', 'invalid_state'],
        }),
      },
    )
    .get(
      '/api/downloads/:orderId/:productId',
      async ({ params, query }) => {
        const file = await openDownload(db, files, params.orderId, params.productId, query);
        return new Response(file.body, {
          headers: {
            'content-type': file.type,
            'content-disposition': attachment(file.name),
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
            // Note: opened on its own, the file can run nothing and reach nothing.
            'content-security-policy': "default-src 'none'; sandbox",
            'referrer-policy': 'no-referrer',
          },
        });
      },
      {
        query: LinkQuery,
        ...contract({
          tags,
          summary: 'The file a signed download link names',
          description:
            'Answers the file (as an attachment) while the link is valid and the order paid; 403 for a link that is altered, another order’s or expired; 409 when the order is not paid.',
          ok: { 200: { mediaType: '*/*', description: 'The file' } },
          errors: ['forbidden', 'invalid_state', 'not_found'],
        }),
      },
    );
