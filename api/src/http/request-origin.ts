// State changes only from our own pages. A browser attaches the merchant's session cookie to any
// request a page makes to us, so every state-changing request must (1) carry its body as JSON,
// which a cross-site <form> cannot send and a cross-site fetch can send only after a CORS
// preflight we never grant, and (2) come from our own origin when a browser says where it came
// from (`Sec-Fetch-Site`, `Origin`). Requests without those headers are not made by a browser on
// someone else's page (curl, an integrator's server) and carry no ambient credentials, so they pass.
// Note: 'same-site' is refused too: a sibling subdomain is another party's page.
import { DIGITAL_FILE } from '@store/shared';
import { Elysia } from 'elysia';
import { AppError } from './errors.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Texts of the request-origin refusals. */
export const REQUEST_ORIGIN_MESSAGES = {
  jsonOnly: 'Send the request body as JSON (Content-Type: application/json)',
  crossOrigin: 'This request must come from the storefront’s own pages',
} as const;

/** True for `application/json` and `application/<something>+json`, any parameters. */
export function isJsonContentType(value: string): boolean {
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * True for an image upload (POST /api/uploads/…, an image content type) or a file product's file
 * (PUT /api/products/{id}/file, a DIGITAL_FILE type): its body is the image or file,
 * not JSON. Note: as safe as JSON against other sites' pages: a <form> cannot send these types and
 * a cross-site fetch of them needs a CORS preflight we never grant; the origin checks still apply.
 */
function isImageUpload(request: Request, contentType: string | null): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const path = new URL(request.url).pathname;
  // Note: a file product's file (PUT: no <form> can send it, and a cross-site fetch of it needs a
  // preflight even as text/plain).
  if (request.method === 'PUT' && /^\/api\/products\/[^/]+\/file$/.test(path))
    return (DIGITAL_FILE.types as readonly string[]).includes(type);
  return (
    request.method === 'POST' &&
    path.startsWith('/api/uploads/') &&
    /^image\/(png|jpeg|jpg|webp|svg\+xml)$/i.test(type)
  );
}

/** True when the request says it has a body (a length above 0, or a chunked body). */
function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  if (length !== null) return Number(length) > 0;
  return request.headers.has('transfer-encoding');
}

/** The host the client addressed: `Host`, or the proxy's `X-Forwarded-Host` when trusted. */
function requestHost(request: Request, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? request.headers.get('x-forwarded-host')?.split(',')[0] : undefined;
  return (forwarded ?? request.headers.get('host') ?? new URL(request.url).host)
    .trim()
    .toLowerCase();
}

/**
 * Why a state-changing request is refused, or undefined when it may go on. Pure, for unit tests.
 * `allowedOrigins` are extra origins (a web app on another host) besides the API's own host.
 */
export function originRefusal(
  request: Request,
  options: { allowedOrigins: readonly string[]; trustProxy?: boolean },
): { status: 'unsupported_media_type' | 'forbidden'; message: string } | undefined {
  if (!MUTATING.has(request.method)) return undefined;
  const contentType = request.headers.get('content-type');
  if (
    (contentType !== null || hasBody(request)) &&
    !isJsonContentType(contentType ?? '') &&
    !isImageUpload(request, contentType)
  )
    return { status: 'unsupported_media_type', message: REQUEST_ORIGIN_MESSAGES.jsonOnly };
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  if (origin !== null) {
    if (options.allowedOrigins.includes(origin)) return undefined;
    let host: string | undefined;
    try {
      host = new URL(origin).host.toLowerCase();
    } catch {
      host = undefined; // 'null' and other opaque origins
    }
    if (host === undefined || host !== requestHost(request, options.trustProxy ?? false))
      return { status: 'forbidden', message: REQUEST_ORIGIN_MESSAGES.crossOrigin };
  }
  // Note: an allowed origin on another host was accepted above; any other page is refused.
  if (site === 'cross-site' || site === 'same-site')
    return { status: 'forbidden', message: REQUEST_ORIGIN_MESSAGES.crossOrigin };
  return undefined;
}

/** Plugin: refuses non-JSON and cross-origin state changes before any route runs. */
export const requestOriginGuard = (options: {
  allowedOrigins: readonly string[];
  trustProxy?: boolean;
}) =>
  new Elysia({ name: 'request-origin' }).onRequest(({ request }) => {
    const refusal = originRefusal(request, options);
    if (refusal) throw new AppError(refusal.status, refusal.message);
  });
