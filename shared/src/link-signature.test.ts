import { describe, expect, it } from 'vitest';
import {
  canonicalLinkParams,
  encodeRfc3986,
  hmacSha256Hex,
  linkSignaturePartsOf,
  signLinkParams,
  verifyLinkSignature,
} from './link-signature.ts';

const STORE = '7b0c1a52-9d8e-4f11-8a3b-2c4d5e6f7a8b';
const SECRET = 'lsk_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const LINK =
  '/universal-checkout?storeName=Caf%C3%A9+%26+Co&items=%5B%7B%22title%22%3A%22Mug%22%2C%22priceUsdc%22%3A%2212.50%22%2C%22quantity%22%3A2%7D%5D' +
  '&paymentAddress=0x1111111111111111111111111111111111111111&webhookUrl=https%3A%2F%2Fshop.example%2Fhook';

describe('canonicalLinkParams', () => {
  it('sorts by name then value, encodes UTF-8 as RFC 3986 and leaves out sig and sigv', () => {
    expect(canonicalLinkParams('b=2&a=z&a=y&sig=ff&sigv=1&c=%C3%A9+!*')).toBe(
      'a=y&a=z&b=2&c=%C3%A9%20%21%2A',
    );
  });

  it('is the same for a URL, a query with ? and a bare query, whatever the order', () => {
    const shuffled = `storeId=${STORE}&b=2&a=1`;
    expect(canonicalLinkParams(`https://x.example/p?a=1&b=2&storeId=${STORE}#frag`)).toBe(
      canonicalLinkParams(`?${shuffled}`),
    );
    expect(canonicalLinkParams(shuffled)).toBe(`a=1&b=2&storeId=${STORE}`);
  });

  it('keeps empty values and repeated names (an added parameter changes it)', () => {
    expect(canonicalLinkParams('a=&a=1')).toBe('a=&a=1');
    expect(canonicalLinkParams('a=1')).not.toBe(canonicalLinkParams('a=1&a=1'));
  });

  it('reads a lone surrogate as U+FFFD, as URLSearchParams does everywhere', () => {
    expect(canonicalLinkParams(new URLSearchParams([['a', '\uD800']]))).toBe('a=%EF%BF%BD');
  });

  it('encodes the characters encodeURIComponent leaves', () => {
    expect(encodeRfc3986("!'()*~-._")).toBe('%21%27%28%29%2A~-._');
  });
});

describe('signing and verifying', () => {
  it('is HMAC-SHA256 in lowercase hex (RFC 4231 test case 2)', async () => {
    expect(await hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('signs with storeId, sig and sigv=1 and verifies the untouched link', async () => {
    const signed = await signLinkParams(LINK, STORE, SECRET);
    expect(signed.get('storeId')).toBe(STORE);
    expect(signed.get('sigv')).toBe('1');
    expect(signed.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    const parts = linkSignaturePartsOf(`/universal-checkout?${signed}`);
    expect(parts.kind).toBe('signed');
    if (parts.kind !== 'signed') return;
    expect(parts.storeId).toBe(STORE);
    expect(await verifyLinkSignature(parts, SECRET)).toBe(true);
    expect(await verifyLinkSignature(parts, `${SECRET}0`)).toBe(false);
  });

  it('re-signing replaces a previous signature', async () => {
    const once = await signLinkParams(LINK, STORE, SECRET);
    const twice = await signLinkParams(once, STORE, SECRET);
    expect(twice.getAll('sig')).toEqual(once.getAll('sig'));
  });

  it.each([
    [
      'a price',
      (p: URLSearchParams) => p.set('items', p.get('items')?.replace('12.50', '0.01') ?? ''),
    ],
    ['the address', (p: URLSearchParams) => p.set('paymentAddress', `0x${'2'.repeat(40)}`)],
    ['the webhook', (p: URLSearchParams) => p.set('webhookUrl', 'https://evil.example/h')],
    ['the store', (p: URLSearchParams) => p.set('storeId', crypto.randomUUID())],
    ['an added parameter', (p: URLSearchParams) => p.append('freeShipping', 'true')],
    ['a removed parameter', (p: URLSearchParams) => p.delete('webhookUrl')],
  ])('an edit of %s fails verification', async (_, edit) => {
    const signed = await signLinkParams(LINK, STORE, SECRET);
    edit(signed);
    const parts = linkSignaturePartsOf(signed);
    if (parts.kind !== 'signed') throw new Error(`expected signed parts, got ${parts.kind}`);
    expect(await verifyLinkSignature(parts, SECRET)).toBe(false);
  });
});

describe('linkSignaturePartsOf', () => {
  it('a link without signature parameters is unsigned', () => {
    expect(linkSignaturePartsOf(LINK)).toEqual({ kind: 'unsigned' });
  });

  it('a signed link that gives a name twice is altered, whatever the order of its values', async () => {
    // Signed with two items values, the first being the one the checkout reads: swapping them
    // keeps the canonical form (values are sorted), so a repeated name can never be trusted.
    const params = new URLSearchParams(LINK.split('?')[1]);
    params.append('items', '[{"title":"Mug","priceUsdc":"0.01","quantity":2}]');
    const signed = await signLinkParams(params, STORE, SECRET);
    const values = signed.getAll('items');
    signed.delete('items');
    for (const value of values.reverse()) signed.append('items', value);
    expect(linkSignaturePartsOf(signed)).toEqual({ kind: 'malformed' });
  });

  it.each([
    ['only storeId', `storeId=${STORE}`],
    ['no version', `storeId=${STORE}&sig=${'a'.repeat(64)}`],
    ['version 2', `storeId=${STORE}&sig=${'a'.repeat(64)}&sigv=2`],
    ['a short signature', `storeId=${STORE}&sig=abc&sigv=1`],
    ['uppercase hex', `storeId=${STORE}&sig=${'A'.repeat(64)}&sigv=1`],
    ['a store that is no id', `storeId=shop&sig=${'a'.repeat(64)}&sigv=1`],
    ['two signatures', `storeId=${STORE}&sig=${'a'.repeat(64)}&sig=${'b'.repeat(64)}&sigv=1`],
  ])('%s is malformed', (_, query) => {
    expect(linkSignaturePartsOf(query).kind).toBe('malformed');
  });
});
