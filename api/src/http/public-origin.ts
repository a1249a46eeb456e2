// The origin shoppers reach the web app at, for links the API hands out (hosted checkouts, signed
// links): PUBLIC_URL when configured, else the origin the request addressed (behind a trusted
// proxy, its forwarded host and scheme).
import type { ApiConfig } from '../config.ts';
import { AppError } from './errors.ts';
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

/** Why an email with a link cannot be sent: no trusted origin for its links. */
export const MAIL_ORIGIN_MISSING =
  'Emails with links need PUBLIC_URL (the web app’s public origin) to be set on the API';

/**
 * The origin of links in emails (verify, reset, shipped): PUBLIC_URL; in local mode, the request's
 * own. Note: never a deployment's request Host or X-Forwarded-Host: anyone can send a forgot-
 * password request with `Host: evil.example`, and the victim would get a genuine email whose link
 * hands the attacker the token. 503 without PUBLIC_URL outside local mode.
 */
export function mailOriginOf(
  config: Pick<ApiConfig, 'publicUrl' | 'trustProxy' | 'localMode'>,
  request: Request,
): string {
  if (config.publicUrl) return config.publicUrl;
  if (config.localMode) return publicOriginOf(config, request);
  throw new AppError('unavailable', MAIL_ORIGIN_MISSING);
}

/** `mailOriginOf`, or null where it would refuse (a mail whose link is optional leaves it out). */
export function mailOriginOrNull(
  config: Pick<ApiConfig, 'publicUrl' | 'trustProxy' | 'localMode'>,
  request: Request,
): string | null {
  return config.publicUrl || config.localMode ? mailOriginOf(config, request) : null;
}
