// The origin shoppers reach the web app at, for links the API hands out (hosted checkouts, signed
// links): PUBLIC_URL when configured, else the origin the request addressed (behind a trusted
// proxy, its forwarded host and scheme).
import type { ApiConfig } from '../config.ts';
import { isHttpsRequest } from './security-headers.ts';

/** The public origin for links in the answer to `request`. */
export function publicOriginOf(
  config: Pick<ApiConfig, 'publicUrl' | 'trustProxy'>,
  request: Request,
): string {
  if (config.publicUrl) return config.publicUrl;
  const forwardedHost = config.trustProxy
    ? request.headers.get('x-forwarded-host')?.split(',')[0]?.trim()
    : undefined;
  const host = forwardedHost || request.headers.get('host') || new URL(request.url).host;
  return `${isHttpsRequest(request, config.trustProxy) ? 'https' : 'http'}://${host}`;
}
