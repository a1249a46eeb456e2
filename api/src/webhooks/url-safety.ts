// Webhook URLs are outbound requests chosen by strangers (merchants, and anyone who builds a
// universal checkout link): https only, and only to public addresses, unless the installation
// allows private targets (local mode, where integrators test against their own machine).
// Checked when a URL is saved AND on every send, at connect time (see `safeLookup`), so a
// hostname that re-resolves to a private address (DNS rebinding) is still refused.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { promisify } from 'node:util';

/** Why a webhook URL was refused (the merchant sees these). */
export const WEBHOOK_URL_MESSAGES = {
  invalid: 'Webhook URL must be an absolute URL',
  tooLong: 'Webhook URL must be at most 2000 characters',
  https: 'Webhook URL must use https',
  credentials: 'Webhook URL must not contain a user name or password',
  unresolvable: (host: string) => `Webhook URL host ${host} does not resolve`,
  privateAddress: (host: string) =>
    `Webhook URL host ${host} resolves to a private, loopback or reserved address`,
} as const;

// IPv4: every entry of the IANA IPv4 Special-Purpose Address Registry is refused, the globally
// reachable ones too (anycast relays and sinks are no webhook receivers).
const IPV4_SPECIAL = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.31.196.0', 24], // AS112-v4
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // direct delegation AS112 service
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved
  ['255.255.255.255', 32], // limited broadcast
] as const;

// IPv6: an allow-list. Only global unicast (2000::/3) is public, minus the entries of the IANA IPv6
// Special-Purpose Address Registry inside it. Everything outside 2000::/3 (loopback, unspecified,
// IPv4-compatible ::a.b.c.d, site-local fec0::/10, unique-local, link-local, multicast, discard,
// local-use NAT64 64:ff9b:1::/48, …) is refused, except the two forms below that carry an IPv4
// address and are judged by it.
const IPV6_GLOBAL_UNICAST = ['2000::', 3] as const;
const IPV6_SPECIAL = [
  // IETF protocol assignments: Teredo 2001::/32 (embeds an IPv4), benchmarking, ORCHID, AMT, …
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4; deprecated relays)
  ['2620:4f:8000::', 48], // direct delegation AS112 service
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 SIDs
] as const;
/**
 * IPv6 forms that reach an IPv4 address: the connection goes to the IPv4 address in the last 32
 * bits, so it is judged by the IPv4 rule. IPv4-mapped (::ffff:a.b.c.d, what a dual-stack socket
 * uses) and the well-known NAT64 prefix (64:ff9b::/96, what DNS64 answers on an IPv6-only network).
 */
const IPV6_EMBEDDING_IPV4 = ['::ffff:', '64:ff9b::'] as const;

function subnetList(subnets: readonly (readonly [string, number])[], type: 'ipv4' | 'ipv6') {
  const list = new BlockList();
  for (const [net, prefix] of subnets) list.addSubnet(net, prefix, type);
  return list;
}

const ipv4Special = subnetList(IPV4_SPECIAL, 'ipv4');
const ipv6GlobalUnicast = subnetList([IPV6_GLOBAL_UNICAST], 'ipv6');
const ipv6Special = subnetList(IPV6_SPECIAL, 'ipv6');
const ipv6EmbeddingIpv4 = subnetList(
  IPV6_EMBEDDING_IPV4.map((prefix) => [`${prefix}0.0.0.0`, 96] as const),
  'ipv6',
);
// Note: each special IPv4 range, moved into each embedding /96 (::ffff:10.0.0.0/104, …).
const ipv6EmbeddedSpecial = subnetList(
  IPV6_EMBEDDING_IPV4.flatMap((prefix) =>
    IPV4_SPECIAL.map(([net, length]) => [`${prefix}${net}`, 96 + length] as const),
  ),
  'ipv6',
);

/**
 * True for a public unicast address a webhook may be sent to: IPv4 outside every special-purpose
 * range; IPv6 in global unicast outside every special-purpose range, or IPv4-mapped / NAT64
 * (64:ff9b::/96) carrying such an IPv4 address. Anything else is refused: other spellings of
 * IPv4 (`2130706433`, `0x7f.1`: URLs normalise these before they get here), zone ids, 6to4,
 * Teredo, IPv4-compatible and local-use NAT64 addresses.
 */
export function isPublicAddress(address: string): boolean {
  // Note: a zone id (fe80::1%eth0) only ever names a scoped address.
  if (address.includes('%')) return false;
  const family = isIP(address);
  if (family === 4) return !ipv4Special.check(address, 'ipv4');
  if (family !== 6) return false;
  if (ipv6EmbeddingIpv4.check(address, 'ipv6')) return !ipv6EmbeddedSpecial.check(address, 'ipv6');
  return ipv6GlobalUnicast.check(address, 'ipv6') && !ipv6Special.check(address, 'ipv6');
}

const lookupAll = promisify(dnsLookup);

/** Checks a URL's form; an error message, or null when it may be used. */
export function checkWebhookUrlForm(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > 2000) return WEBHOOK_URL_MESSAGES.tooLong;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return WEBHOOK_URL_MESSAGES.invalid;
  }
  const allowed = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) return WEBHOOK_URL_MESSAGES.https;
  if (url.username || url.password) return WEBHOOK_URL_MESSAGES.credentials;
  return null;
}

/** Checks the form and where the host resolves now; an error message, or null. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<string | null> {
  const formError = checkWebhookUrlForm(raw, allowPrivate);
  if (formError || allowPrivate) return formError;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookupAll(host, { all: true })).map((entry: LookupAddress) => entry.address);
  } catch {
    return WEBHOOK_URL_MESSAGES.unresolvable(host);
  }
  if (addresses.length === 0) return WEBHOOK_URL_MESSAGES.unresolvable(host);
  return addresses.every(isPublicAddress) ? null : WEBHOOK_URL_MESSAGES.privateAddress(host);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) that refuses private answers: the address checked is the one
 * connected to, so nothing can change between the check and the connection.
 */
export function safeLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = !allowPrivate && addresses.some((a) => !isPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        const failure = new Error(WEBHOOK_URL_MESSAGES.privateAddress(hostname));
        return callback(Object.assign(failure, { code: 'EPRIVATEADDRESS' }), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
