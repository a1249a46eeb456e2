// Signed universal-checkout links: the canonical form of a link's parameters and its HMAC-SHA256
// signature with the store's link secret. Runs in a browser and on any server (WebCrypto only), so
// an integrator's own server can compute the same bytes: every parameter but the signature ones,
// each name and value UTF-8 percent-encoded (RFC 3986: all but A-Z a-z 0-9 - _ . ~), pairs sorted
// by name then value, joined `name=value&…`; signature = lowercase hex HMAC-SHA256(secret, that).

/** Parameter carrying the signature (64 hex characters). */
export const LINK_SIGNATURE_PARAM = 'sig';
/** Parameter carrying the signature scheme's version. */
export const LINK_SIGNATURE_VERSION_PARAM = 'sigv';
/** Parameter naming the store whose link secret signed the link (signed with the rest). */
export const LINK_STORE_PARAM = 'storeId';
/** The one signature scheme: HMAC-SHA256 over the canonical parameters, hex. */
export const LINK_SIGNATURE_VERSION = '1';

/** Parameters left out of the canonical form (they carry the signature itself). */
export const LINK_SIGNATURE_PARAMS = [LINK_SIGNATURE_PARAM, LINK_SIGNATURE_VERSION_PARAM] as const;

/** Texts of signed links. */
export const SIGNED_LINK_MESSAGES = {
  altered: 'This payment link was altered after it was signed. Ask the seller for a new link.',
  payoutChanged:
    "This payment link no longer pays the seller's payout address. Ask the seller for a new link.",
  payoutMismatch: "A signed link must pay the store's payout address",
  noPayout: 'Set a payout address for this store before signing links',
  signedBadge: 'Signed link: the items, prices and payee are the seller’s own',
  discountUnsigned: 'A discount code is honoured only on a link its store signed',
} as const;

/** Percent-encodes UTF-8, leaving only RFC 3986's unreserved characters. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The query of a link: a URL, `?a=b…` or `a=b…`, as parameters. */
export function linkParamsOf(link: string | URLSearchParams): URLSearchParams {
  if (typeof link !== 'string') return new URLSearchParams(link);
  const question = link.indexOf('?');
  const query = question >= 0 ? link.slice(question + 1) : link;
  return new URLSearchParams(query.split('#')[0]);
}

/**
 * The canonical form of a link's parameters: every one but `sig` and `sigv` (`storeId` included).
 * Note: URLSearchParams holds well-formed text only (a lone surrogate becomes U+FFFD), so the
 * encoding below cannot fail.
 */
export function canonicalLinkParams(link: string | URLSearchParams): string {
  const pairs: [string, string][] = [];
  for (const [name, value] of linkParamsOf(link)) {
    if ((LINK_SIGNATURE_PARAMS as readonly string[]).includes(name)) continue;
    pairs.push([encodeRfc3986(name), encodeRfc3986(value)]);
  }
  // Note: encoded names and values are ASCII, so this order (name, then value, by character
  // code) is the same in every language.
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return pairs
    .sort(([a, x], [b, y]) => compare(a, b) || compare(x, y))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const toHex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** Lowercase hex HMAC-SHA256 of `message` with `secret` (both UTF-8). */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return toHex(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

/** True when two strings are equal, in time that depends only on their lengths. */
export function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Signs a link for `storeId`: a copy of its parameters without any previous signature, with
 * `storeId` set, then `sig` and `sigv=1` appended.
 */
export async function signLinkParams(
  link: string | URLSearchParams,
  storeId: string,
  secret: string,
): Promise<URLSearchParams> {
  const params = linkParamsOf(link);
  for (const name of LINK_SIGNATURE_PARAMS) params.delete(name);
  params.set(LINK_STORE_PARAM, storeId);
  params.set(LINK_SIGNATURE_PARAM, await hmacSha256Hex(secret, canonicalLinkParams(params)));
  params.set(LINK_SIGNATURE_VERSION_PARAM, LINK_SIGNATURE_VERSION);
  return params;
}

/** True when some parameter name appears more than once. */
export function hasRepeatedName(params: URLSearchParams): boolean {
  const names = [...params.keys()];
  return new Set(names).size !== names.length;
}

/** What a link says about its signature, before any secret is looked at. */
export type LinkSignatureParts =
  /** No `sig`, `sigv` or `storeId`: a hand-made link. */
  | { kind: 'unsigned' }
  /** All three, well formed: to verify with the store's secret. */
  | { kind: 'signed'; storeId: string; signature: string; canonical: string }
  /** Some but not all, repeated, an unknown version or a bad form: an altered link. */
  | { kind: 'malformed' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads a link's signature parameters. */
export function linkSignaturePartsOf(link: string | URLSearchParams): LinkSignatureParts {
  const params = linkParamsOf(link);
  const names = [LINK_SIGNATURE_PARAM, LINK_SIGNATURE_VERSION_PARAM, LINK_STORE_PARAM];
  const counts = names.map((name) => params.getAll(name).length);
  if (counts.every((count) => count === 0)) return { kind: 'unsigned' };
  if (counts.some((count) => count !== 1)) return { kind: 'malformed' };
  // Note: a name given twice is refused: the checkout reads the first value, and the canonical
  // form sorts values, so swapping two values of one name would keep the signature.
  if (hasRepeatedName(params)) return { kind: 'malformed' };
  const signature = params.get(LINK_SIGNATURE_PARAM) ?? '';
  const storeId = params.get(LINK_STORE_PARAM) ?? '';
  if (
    params.get(LINK_SIGNATURE_VERSION_PARAM) !== LINK_SIGNATURE_VERSION ||
    !/^[0-9a-f]{64}$/.test(signature) ||
    !UUID.test(storeId)
  )
    return { kind: 'malformed' };
  return {
    kind: 'signed',
    storeId: storeId.toLowerCase(),
    signature,
    canonical: canonicalLinkParams(params),
  };
}

/** True when the signed parts' signature is the one `secret` makes. */
export async function verifyLinkSignature(
  parts: Extract<LinkSignatureParts, { kind: 'signed' }>,
  secret: string,
): Promise<boolean> {
  return timingSafeEqualText(await hmacSha256Hex(secret, parts.canonical), parts.signature);
}

/** True when a link carries any signature parameter (the checkout page then asks the API). */
export function looksSigned(link: string | URLSearchParams): boolean {
  return linkSignaturePartsOf(link).kind !== 'unsigned';
}
