// The address a request came from, for per-client limits: the socket's peer, or, only when the API
// is told it sits behind a proxy (TRUST_PROXY=true), the first address of X-Forwarded-For.
import { isIP } from 'node:net';

/** What a route's context offers to find the peer: Bun's server, null under `app.handle`. */
export interface RequestSource {
  request: Request;
  server?: { requestIP(request: Request): { address: string } | null } | null;
}

/**
 * The address of a request without a socket (`app.handle` in tests, a Unix socket): all such
 * requests share it, so they share one client's limits.
 */
export const UNKNOWN_CLIENT_ADDRESS = '0.0.0.0';

/**
 * The client's IP address for `request`. With `trustProxy`, the first address of X-Forwarded-For
 * when it is one (else the peer's). Note: only set it behind a proxy that replaces the header the
 * client sent (or strips it): the first entry is whatever reached that proxy first, so a proxy that
 * only appends lets any client choose its own address and escape per-client limits.
 */
export function clientAddress(source: RequestSource, options: { trustProxy: boolean }): string {
  if (options.trustProxy) {
    const forwarded = source.request.headers.get('x-forwarded-for');
    const first = forwarded?.split(',', 1)[0]?.trim() ?? '';
    if (first.length <= 64 && isIP(first)) return normaliseAddress(first);
  }
  const peer = source.server?.requestIP(source.request)?.address;
  return peer ? normaliseAddress(peer) : UNKNOWN_CLIENT_ADDRESS;
}

/** An IPv4 address as it is; an IPv4-mapped IPv6 one (::ffff:1.2.3.4) as its IPv4 address. */
function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? address.toLowerCase();
}

/**
 * The part of an address that one client controls, to key its limits: an IPv4 address whole, an
 * IPv6 address's /64 network (one subscriber or server is commonly given a whole /64, so counting
 * single IPv6 addresses would let it try 2^64 times). Anything else is returned as it is.
 */
export function clientBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address, as lowercase hex without leading zeros. */
function expandIpv6(address: string): string[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group || '0', 16).toString(16));
}
