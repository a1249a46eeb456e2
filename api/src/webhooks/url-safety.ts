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

// Note: every range that is not globally routable (IANA special-purpose registries).
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True for an address on the public internet (IPv4-mapped and NAT64 IPv6 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (embedded?.[1]) return isPublicAddress(embedded[1]);
  // Note: mapped addresses written in hex (::ffff:7f00:1) are refused outright.
  if (lower.startsWith('::ffff:') || lower.startsWith('64:ff9b::')) return false;
  return !blocked.check(address, 'ipv6');
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
