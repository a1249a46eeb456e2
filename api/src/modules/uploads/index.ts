// Routes: POST /api/uploads/{kind} (a merchant's logo or product picture: the image's own bytes
// as the body, Content-Type image/png, image/jpeg, image/webp or image/svg+xml; a limited number
// an hour per account, each made into its sizes in a process of its own within a time and memory
// limit), GET /api/uploads/{id}/{size}.{ext} (the sizes made of it, cached for a year: they never
// change).
import { randomBytes } from 'node:crypto';
import { UPLOAD_KINDS, type UploadKind, UploadResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { RATE_LIMIT_MESSAGES, type RateLimit, RateLimiter } from '../../http/rate-limit.ts';
import { renderUpload } from '../../uploads/render-process.ts';
import { type ObjectStore, objectStoreFor } from '../../uploads/storage.ts';

const tags = ['uploads'];
const UPLOAD_RESPONSE = registerResponseSchema('Upload', UploadResponseSchema);

const CONTENT_TYPES = { webp: 'image/webp', png: 'image/png' } as const;

/** Reads at most `max` bytes of the request's body; 413 with `message` beyond. */
export async function readCapped(
  request: Request,
  max: number,
  message: string,
): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > max) throw new AppError('payload_too_large', message);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.length;
    if (size > max) throw new AppError('payload_too_large', message);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Uploaded images: stored in the object store the configuration names. */
export const uploadsModule = (
  { db, config }: AppDeps,
  store: ObjectStore = objectStoreFor(config),
) => {
  const limiter = new RateLimiter(db);
  const perAccount: RateLimit = {
    bucket: 'uploads:account',
    max: config.uploadsPerHour,
    windowMs: 60 * 60 * 1000,
  };
  return new Elysia({ name: 'uploads' })
    .use(accessPlugin(db))
    .post(
      '/api/uploads/:kind',
      async ({ params, request, set, user }) => {
        if (!(params.kind in UPLOAD_KINDS))
          throw new AppError('not_found', 'Uploads are logos or product pictures');
        const kind = params.kind as UploadKind;
        // Note: counted before the body is read: a refused upload costs a row, never a decode.
        await limiter.enforce(set, [
          { limit: perAccount, key: user.id, reason: RATE_LIMIT_MESSAGES.accountUploads },
        ]);
        const bytes = await readCapped(
          request,
          UPLOAD_KINDS[kind].maxBytes,
          UPLOAD_KINDS[kind].tooLarge,
        );
        const variants = await renderUpload(bytes, kind, config.uploadLimits);
        const id = randomBytes(16).toString('hex');
        const sizes: Record<string, string> = {};
        for (const variant of variants) {
          const key = `${id}/${variant.name}.${variant.ext}`;
          await store.put(key, variant.body, variant.contentType);
          sizes[variant.name] = `/api/uploads/${key}`;
        }
        set.status = 201;
        return { id, kind, url: sizes.page ?? sizes.logo ?? '', sizes };
      },
      {
        // Note: the body is the image itself; nothing parses it before the route has checked it.
        parse: 'none',
        access: 'merchant',
        ...contract({
          tags,
          summary: `Upload a store logo (${UPLOAD_KINDS.logo.hint}) or a product picture (${UPLOAD_KINDS.product.hint})`,
          description:
            'The body is the image file itself with its Content-Type (image/png, image/jpeg, image/webp or image/svg+xml). The type is checked by content, the image re-encoded and resized (logo: 512 px PNG; product: 480 px card and 1200 px page WebP); an SVG is drawn to PNG and may not link to other files or use filter effects. An image that takes longer than a few seconds or too much memory to process is refused (422); an account may upload a limited number of images an hour (429 with Retry-After). Store the returned `url` as the logo or image URL.',
          ok: { 201: UPLOAD_RESPONSE },
          errors: [
            'not_found',
            'payload_too_large',
            'unsupported_media_type',
            'validation_failed',
            'rate_limited',
            'unavailable',
          ],
        }),
      },
    )
    .get(
      '/api/uploads/:id/:file',
      async ({ params }) => {
        const match = /^(card|page|logo)\.(webp|png)$/.exec(params.file);
        if (!/^[0-9a-f]{32}$/.test(params.id) || !match)
          throw new AppError('not_found', 'No such image');
        const body = await store.get(`${params.id}/${params.file}`);
        if (!body) throw new AppError('not_found', 'No such image');
        return new Response(body, {
          headers: {
            'content-type': CONTENT_TYPES[match[2] as 'webp' | 'png'],
            'cache-control': 'public, max-age=31536000, immutable',
            'x-content-type-options': 'nosniff',
            // Note: opened on its own, the image can run nothing and reach nothing.
            'content-security-policy': "default-src 'none'; sandbox",
          },
        });
      },
      {
        ...contract({
          tags,
          summary: 'An uploaded image in one of its sizes',
          ok: { 200: { mediaType: 'image/*', description: 'The image (PNG or WebP)' } },
          errors: ['not_found'],
        }),
      },
    );
};
