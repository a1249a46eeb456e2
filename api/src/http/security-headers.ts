// Security headers on every response: the web app's pages get a Content-Security-Policy without
// inline script, every response nosniff, a referrer policy and an opener policy, API responses
// `Cache-Control: no-store` (unless the route sets its own), and HTTPS responses outside local mode
// Strict-Transport-Security.
import { Elysia } from 'elysia';

/**
 * The policy of the web app's pages. Scripts, styles, fonts, requests and web manifests stay on the
 * app's own origin; images may come from any HTTPS origin (store logos and product images are
 * merchants' URLs) and from data: URLs (the payment page's QR code). Note: `style-src 'self'`
 * holds because React sets style props through the CSSOM (element.style), which a policy does not
 * govern, and the built index.html has no inline script or style. `inlineStyles` is for the API
 * reference page alone (http/api-reference.ts).
 */
export function contentSecurityPolicy(
  frameAncestors: readonly string[] = [],
  options: { inlineStyles?: boolean } = {},
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    options.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' https: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/** Headers of every response. */
export const COMMON_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  // Note: the full URL stays on our origin; other sites (a universal checkout's returnUrl, a
  // block explorer) see only the origin, never an order id in a path.
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/** Headers of the web app's HTML pages (those of every response included). */
export function pageSecurityHeaders(frameAncestors: readonly string[] = []) {
  return {
    ...COMMON_SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy(frameAncestors),
    // Note: for browsers without frame-ancestors; it cannot name origins, so only when none may.
    ...(frameAncestors.length === 0 ? { 'x-frame-options': 'DENY' } : {}),
  };
}

/** HSTS: a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** True when the client reached us over HTTPS (directly, or at a trusted proxy). */
export function isHttpsRequest(request: Request, trustProxy: boolean): boolean {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.toLowerCase() === 'https';
  }
  return new URL(request.url).protocol === 'https:';
}

/** What the headers depend on. */
export interface SecurityHeaderOptions {
  /** Origins whose pages may frame the web app (a store embedding the checkout); none when empty. */
  frameAncestors: readonly string[];
  /** Local mode never sends Strict-Transport-Security (a browser would pin localhost to HTTPS). */
  localMode: boolean;
  /** Whether a proxy in front sets X-Forwarded-Proto (then its first value is the scheme). */
  trustProxy: boolean;
}

/** True for an HTML body: a file (the web app's index.html) or a Response that says so. */
function isHtml(response: unknown): boolean {
  const type =
    response instanceof Response
      ? response.headers.get('content-type')
      : response instanceof Blob
        ? response.type
        : null;
  return type?.toLowerCase().startsWith('text/html') ?? false;
}

/** Plugin: the headers above on every response, errors included. Register it first. */
export const securityHeaders = (options: SecurityHeaderOptions) => {
  const page = pageSecurityHeaders(options.frameAncestors);
  return (
    new Elysia({ name: 'security-headers' })
      // Note: set before any other hook can throw, so error responses carry them too; a route
      // that sets its own Cache-Control overrides the default.
      .onRequest(({ request, set }) => {
        Object.assign(set.headers, COMMON_SECURITY_HEADERS);
        if (new URL(request.url).pathname.startsWith('/api/'))
          set.headers['cache-control'] = 'no-store';
        if (!options.localMode && isHttpsRequest(request, options.trustProxy))
          set.headers['strict-transport-security'] = STRICT_TRANSPORT_SECURITY;
      })
      // Note: only the app's HTML documents get the page policy: the service worker script must
      // not (its own fetches of merchants' images would be refused by connect-src); the API
      // reference under /api/ sets its own (http/api-reference.ts).
      .onAfterHandle({ as: 'global' }, ({ request, response, set }) => {
        if (isHtml(response) && !new URL(request.url).pathname.startsWith('/api/'))
          Object.assign(set.headers, page);
      })
  );
};
