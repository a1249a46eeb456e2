// Request bodies over 1 MB are refused with 413 in the JSON error shape.
import { Elysia } from 'elysia';
import { AppError } from './errors.ts';

/** Largest request body the API accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;
// Note: Bun answers a bare 413 (no JSON) above its own limit before any hook runs, so its limit
// sits above ours: bodies up to it get the JSON error, bigger ones are never read at all.
/** Bun's `maxRequestBodySize`: the hard cap behind the JSON check. */
export const SERVER_MAX_BODY_BYTES = 4 * MAX_BODY_BYTES;

const tooLarge = () => new AppError('payload_too_large', 'The request body is larger than 1 MB');

/** Plugin: checks `content-length` up front, and the parsed size of bodies sent without one. */
export const bodyLimit = () =>
  new Elysia({ name: 'body-limit' })
    .onRequest(({ request }) => {
      if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw tooLarge();
    })
    .onTransform({ as: 'global' }, ({ request, body }) => {
      // Chunked bodies carry no length; Bun has read them within its cap, so measure them here.
      if (request.headers.has('content-length') || body === undefined || body === null) return;
      if (Buffer.byteLength(JSON.stringify(body)) > MAX_BODY_BYTES) throw tooLarge();
    });
