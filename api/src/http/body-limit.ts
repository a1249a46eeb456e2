// Guards on every request before validation: bodies over 1 MB (413), bodies nested deeper than any
// real request (400), NUL characters, which Postgres cannot store in text (422), and paths that are
// not valid percent-encoding (400), all answered in the JSON error shape instead of a 500.
import { DIGITAL_FILE, DIGITAL_FILE_MESSAGES, MAX_UPLOAD_BYTES } from '@store/shared';
import { Elysia } from 'elysia';
import { AppError } from './errors.ts';

/** Largest request body the API accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;
// Note: Bun answers a bare 413 (no JSON) above its own limit before any hook runs, so its limit
// sits above ours: bodies up to it get the JSON error, bigger ones are never read at all.
/** Bun's `maxRequestBodySize`: the hard cap behind the JSON check (and above the largest upload). */
export const SERVER_MAX_BODY_BYTES =
  Math.max(MAX_UPLOAD_BYTES, DIGITAL_FILE.maxBytes) + MAX_BODY_BYTES;
/** A file product's upload (its own cap, api/src/modules/products). */
const PRODUCT_FILE_PATH = /^\/api\/products\/[^/]+\/file$/;
/** Deepest nesting of a JSON body (an order is 4 levels deep). */
export const MAX_BODY_DEPTH = 32;

/** Texts of the request guards. */
export const REQUEST_GUARD_MESSAGES = {
  tooLarge: 'The request body is larger than 1 MB',
  tooDeep: `The request body is nested more than ${MAX_BODY_DEPTH} levels deep`,
  nul: 'Text must not contain NUL characters',
  malformedPath: 'The address is not valid: a % in it must start an encoded character',
} as const;

interface BodyShape {
  bytes: number;
  tooDeep: boolean;
  hasNul: boolean;
}

/** Walks a parsed JSON body without recursion (a deep body must not overflow the stack). */
export function inspectBody(body: unknown): BodyShape {
  const shape: BodyShape = { bytes: 0, tooDeep: false, hasNul: false };
  const stack: Array<[unknown, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (depth > MAX_BODY_DEPTH) {
      shape.tooDeep = true;
      return shape;
    }
    if (typeof value === 'string') {
      shape.bytes += Buffer.byteLength(value) + 2;
      if (value.includes('\u0000')) shape.hasNul = true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        shape.bytes += Buffer.byteLength(key) + 4;
        if (key.includes('\u0000')) shape.hasNul = true;
        stack.push([child, depth + 1]);
      }
    } else {
      shape.bytes += 8;
    }
  }
  return shape;
}

/**
 * The decoded form of a URL path; 400 when it does not decode (a % not followed by two hex digits,
 * or escapes that are not UTF-8), which `decodeURIComponent` would throw as a URIError.
 */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new AppError('bad_request', REQUEST_GUARD_MESSAGES.malformedPath);
  }
}

/** Plugin: checks `content-length` and the URL up front, then the parsed body's shape. */
export const bodyLimit = () =>
  new Elysia({ name: 'body-limit' })
    .onRequest(({ request }) => {
      const { pathname } = new URL(request.url);
      // Note: before any route: Elysia would hand a route such a parameter as null.
      decodePath(pathname);
      // Note: an image upload has its own cap per kind (api/src/modules/uploads).
      const upload = pathname.startsWith('/api/uploads/');
      const file = PRODUCT_FILE_PATH.test(pathname);
      const cap = file ? DIGITAL_FILE.maxBytes : upload ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES;
      if (Number(request.headers.get('content-length') ?? 0) > cap)
        throw new AppError(
          'payload_too_large',
          file ? DIGITAL_FILE_MESSAGES.tooLarge : REQUEST_GUARD_MESSAGES.tooLarge,
        );
      if (/%00/.test(request.url)) throw new AppError('bad_request', REQUEST_GUARD_MESSAGES.nul);
    })
    .onTransform({ as: 'global' }, ({ request, body }) => {
      if (body === undefined || body === null || typeof body !== 'object') return;
      const shape = inspectBody(body);
      if (shape.tooDeep) throw new AppError('bad_request', REQUEST_GUARD_MESSAGES.tooDeep);
      // Chunked bodies carry no length; Bun has read them within its cap, so measure them here.
      if (!request.headers.has('content-length') && shape.bytes > MAX_BODY_BYTES)
        throw new AppError('payload_too_large', REQUEST_GUARD_MESSAGES.tooLarge);
      if (shape.hasNul) throw new AppError('validation_failed', REQUEST_GUARD_MESSAGES.nul);
    });
