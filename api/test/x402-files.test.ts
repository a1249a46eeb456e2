// File products on the real stack (Postgres, anvil at 200 ms blocks with Circle's USDC, the
// indexer and the worker's loops): the merchant uploads a file; an agent paying its x402Url with
// the reference client (`@x402/fetch`) gets the file's bytes; a shopper whose storefront order is
// paid gets a signed download link that expires; an unpaid order, an expired or altered link, and
// strangers are refused.
import { afterAll, describe, expect, test } from 'bun:test';
import { DIGITAL_FILE } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { and, eq, sql } from 'drizzle-orm';
import { type Address, createPublicClient, getAddress, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApp } from '../src/app.ts';
import type { ApiConfig } from '../src/config.ts';
import { orders, x402Payments } from '../src/db/schema.ts';
import { downloadPath, downloadSignature } from '../src/modules/downloads/service.ts';
import { type ApiClient, apiClient, newMerchant, storeForm } from './support/client.ts';
import { buyer, waitForPayment } from './support/payments.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';
import { useX402Stack, x402Agent } from './support/x402.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
/** A small but real PDF's bytes (its magic number and a body that differs per call). */
const pdf = (tag: string): Uint8Array => new TextEncoder().encode(`%PDF-1.4\n% ${tag}\n%%EOF\n`);

/** A body's bytes, comparable with `toEqual`. */
const bytesOf = (buffer: ArrayBuffer): Uint8Array => new Uint8Array(buffer);

const t = useX402Stack();
afterAll(() => undefined);

const appFetch = (input: string | Request, init?: RequestInit) =>
  t.app.handle(typeof input === 'string' ? new Request(input, init) : new Request(input, init));

/** PUT the file's bytes as the body with its type (the admin's upload). */
const uploadFile = (
  cookie: string,
  productId: string,
  bytes: Uint8Array,
  type: string,
  name = 'guide.pdf',
) =>
  appFetch(`http://localhost/api/products/${productId}/file?name=${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { cookie, 'content-type': type },
    body: bytes,
  });

/** A merchant's store with a file product at `price` (its file uploaded). */
async function fileProduct(price = '0.40', tag = crypto.randomUUID()) {
  const owner = await newMerchant(t.app, 'files');
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() })))
    .body;
  const created = await owner.api.post('/api/products', {
    storeId: store.id,
    title: 'Field guide (PDF)',
    priceUsdc: price,
  });
  expect(created.status).toBe(201);
  const bytes = pdf(tag);
  const uploaded = await uploadFile(owner.cookie, created.body.id, bytes, 'application/pdf');
  expect(uploaded.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them.
  const product: any = await uploaded.json();
  return { owner, store, product, bytes };
}

describe('file products', () => {
  test('the upload is checked: type, content, size and name; the product shows the file, never its key', async () => {
    const { owner, product, bytes } = await fileProduct();
    expect(product.digital).toEqual({
      kind: 'file',
      fileName: 'guide.pdf',
      fileType: 'application/pdf',
      fileBytes: bytes.byteLength,
    });
    expect(product.x402Url).toBe(`http://localhost/api/x402/products/${product.id}`);
    expect(JSON.stringify(product)).not.toMatch(/[0-9a-f]{32}\/file/);
    const put = (body: Uint8Array, type: string, name?: string) =>
      uploadFile(owner.cookie, product.id, body, type, name);
    expect((await put(bytes, 'application/x-msdownload')).status).toBe(415);
    expect((await put(new TextEncoder().encode('not a pdf'), 'application/pdf')).status).toBe(415);
    expect((await put(new Uint8Array(), 'application/pdf')).status).toBe(422);
    expect((await put(bytes, 'application/pdf', '../../etc/passwd')).status).toBe(422);
    const huge = new Uint8Array(DIGITAL_FILE.maxBytes + 1);
    huge.set(pdf('huge'));
    const tooLarge = await put(huge, 'application/pdf');
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { message: string } }).error.message).toBe(
      'The file must be at most 20MB',
    );
    // A text file is UTF-8 without NUL.
    const text = await put(new TextEncoder().encode('hello, reader\n'), 'text/plain', 'a.txt');
    expect(text.status).toBe(200);
    expect(((await text.json()) as { digital: unknown }).digital).toMatchObject({
      kind: 'file',
      fileType: 'text/plain',
    });
  });

  test('an agent pays the x402Url with @x402/fetch and gets the bytes; a replay is not charged again', async () => {
    const { owner, store, product, bytes } = await fileProduct('0.40');
    const account = localAccount(9);
    const payer = getAddress(account.address);
    const before = (await balancesOf(t.stack.env, payer)).usdc;
    const unpaid = await appFetch(product.x402Url);
    expect(unpaid.status).toBe(402);
    expect(bytesOf(await unpaid.arrayBuffer())).not.toEqual(bytes);
    const { pay, sent } = x402Agent(t, account, (request) => appFetch(request));
    const response = await pay(product.x402Url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="guide.pdf"');
    expect(bytesOf(await response.arrayBuffer())).toEqual(bytes);
    const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
    expect(settled).toMatchObject({ success: true, payer });
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(before - usdc('0.40'));
    const signed = sent.at(-1)?.get('PAYMENT-SIGNATURE') ?? '';
    const replay = await appFetch(product.x402Url, { headers: { 'PAYMENT-SIGNATURE': signed } });
    expect(replay.status).toBe(200);
    expect(bytesOf(await replay.arrayBuffer())).toEqual(bytes);
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(before - usdc('0.40'));
    const [row] = await t.database.db
      .select()
      .from(x402Payments)
      .where(eq(x402Payments.payer, payer.toLowerCase()));
    // Note: the file is not copied into the payment's row.
    expect(row).toMatchObject({ status: 'served', responseBody: null });
    // The order takes the path of every order: paid once the transfer is seen.
    await waitUntil(async () => {
      const [order] = await t.database.db
        .select()
        .from(orders)
        .where(eq(orders.id, row?.orderId ?? ''));
      return order?.status === 'paid';
    }, 'the x402 order paid');

    // A second purchase; the spending summary per payer reads the paid orders.
    expect((await pay(product.x402Url)).status).toBe(200);
    const summary = await waitUntil(async () => {
      const seen = await owner.api.get(`/api/stores/${store.id}/x402-payers`);
      return seen.body.payers[0]?.count === 2 && seen.body;
    }, 'two payments in the summary');
    expect(summary.payers).toEqual([
      { payer, totalUsdc: '0.80', count: 2, lastPaidAt: expect.any(String) },
    ]);
    expect(Date.now() - Date.parse(summary.payers[0].lastPaidAt)).toBeLessThan(60_000);
    const stranger = await newMerchant(t.app, 'payers-stranger');
    expect((await stranger.api.get(`/api/stores/${store.id}/x402-payers`)).status).toBe(404);
    expect((await apiClient(t.app).get(`/api/stores/${store.id}/x402-payers`)).status).toBe(401);
  }, 60_000);

  test('a storefront order: no link before payment; once paid a signed link gets the file; expired, altered or another order’s links are refused', async () => {
    const { owner, store, product, bytes } = await fileProduct('10.00');
    const placed = await t.shopper.post('/api/orders', {
      storeId: store.id,
      ...customer,
      items: [{ productId: product.id, title: product.title, priceUsdc: '10.00', quantity: 1 }],
      subtotalUsdc: '10.00',
      shippingUsdc: '0.00',
      totalUsdc: '10.80',
      status: 'pending',
    });
    expect(placed.status).toBe(201);
    const orderId = placed.body.id as string;
    const token = placed.body.reviewToken as string;
    // Unpaid: no links, and a link signed with the order's own token serves nothing.
    expect((await t.shopper.get(`/api/orders/${orderId}/downloads`, buyer(token))).status).toBe(
      409,
    );
    const soon = Math.floor(Date.now() / 1000) + 600;
    const early = downloadPath(
      orderId,
      product.id,
      soon,
      downloadSignature(token, orderId, product.id, soon),
    );
    expect((await appFetch(`http://localhost${early}`)).status).toBe(409);
    // Without the buyer token: as an unknown order.
    expect((await t.shopper.get(`/api/orders/${orderId}/downloads`)).status).toBe(404);
    expect(
      (await t.shopper.get(`/api/orders/${orderId}/downloads`, buyer('x'.repeat(token.length))))
        .status,
    ).toBe(404);

    const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    await payUsdc(t.stack.env, 3, wallet.body.paymentWallet.address as Address, usdc('10.80'));
    await waitForPayment(
      t.shopper,
      orderId,
      (s) => s.paymentDetected && ['received', 'forwarded'].includes(s.status),
      30_000,
    );

    const listed = await t.shopper.get(`/api/orders/${orderId}/downloads`, buyer(token));
    expect(listed.status).toBe(200);
    const [link] = listed.body.downloads;
    expect(link).toMatchObject({
      productId: product.id,
      fileName: 'guide.pdf',
      fileType: 'application/pdf',
      fileBytes: bytes.byteLength,
    });
    const ttl = Date.parse(link.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan((DIGITAL_FILE.linkMinutes - 1) * 60_000);
    expect(ttl).toBeLessThanOrEqual(DIGITAL_FILE.linkMinutes * 60_000);
    const file = await appFetch(`http://localhost${link.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="guide.pdf"');
    expect(bytesOf(await file.arrayBuffer())).toEqual(bytes);

    // Expired: a link signed for a time already past.
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = downloadPath(
      orderId,
      product.id,
      past,
      downloadSignature(token, orderId, product.id, past),
    );
    const refusedExpired = await appFetch(`http://localhost${expired}`);
    expect(refusedExpired.status).toBe(403);
    expect(
      ((await refusedExpired.json()) as { error: { message: string } }).error.message,
    ).toContain('expired');
    // Its expiry pushed out without a new signature, or the signature changed: refused.
    const url = new URL(`http://localhost${link.url}`);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    expect((await appFetch(later.toString())).status).toBe(403);
    const altered = new URL(url);
    altered.searchParams.set('sig', `${url.searchParams.get('sig')?.slice(0, -2)}AA`);
    expect((await appFetch(altered.toString())).status).toBe(403);
    expect((await appFetch(`http://localhost/api/downloads/${orderId}/${product.id}`)).status).toBe(
      403,
    );

    // Another order (of the same store, unpaid by this shopper) cannot use this link's signature.
    const other = await t.shopper.post('/api/orders', {
      storeId: store.id,
      ...customer,
      items: [{ productId: product.id, title: product.title, priceUsdc: '10.00', quantity: 1 }],
      subtotalUsdc: '10.00',
      shippingUsdc: '0.00',
      totalUsdc: '10.80',
      status: 'pending',
    });
    const swapped = link.url.replace(orderId, other.body.id);
    expect((await appFetch(`http://localhost${swapped}`)).status).toBe(403);

    // A stranger: cannot change the product's file, cannot read the store's files through an
    // order of their own store.
    const stranger = await newMerchant(t.app, 'files-stranger');
    expect(
      (await uploadFile(stranger.cookie, product.id, pdf('evil'), 'application/pdf')).status,
    ).toBe(404);
    const anonymous = await uploadFile('', product.id, pdf('evil'), 'application/pdf');
    expect(anonymous.status).toBe(401);
    await strangersOrderCannotReadIt(stranger, product.id);
    // The owner's file is unchanged.
    const again = await appFetch(`http://localhost${link.url}`);
    expect(bytesOf(await again.arrayBuffer())).toEqual(bytes);
    expect((await owner.api.get(`/api/products/${product.id}`)).body.digital.fileBytes).toBe(
      bytes.byteLength,
    );
  }, 90_000);
});

/**
 * A stranger's own paid order naming another store's file product gets no link to it, and a link
 * they sign for it with their own order's token serves nothing.
 */
async function strangersOrderCannotReadIt(stranger: { api: ApiClient }, productId: string) {
  const theirStore = (
    await stranger.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() }))
  ).body;
  const theirs = await t.shopper.post('/api/orders', {
    storeId: theirStore.id,
    ...customer,
    items: [{ productId, title: 'Field guide (PDF)', priceUsdc: '10.00', quantity: 1 }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.80',
    status: 'pending',
  });
  // Note: the order API checks lines against the store's catalogue; either it is refused, or the
  // order exists and still reaches nothing of the other store.
  if (theirs.status !== 201) {
    expect(theirs.status).toBeGreaterThanOrEqual(400);
    return;
  }
  const id = theirs.body.id as string;
  const token = theirs.body.reviewToken as string;
  await t.database.db.update(orders).set({ status: 'paid' }).where(eq(orders.id, id));
  const listed = await apiClient(t.app).get(`/api/orders/${id}/downloads`, buyer(token));
  expect(listed.body.downloads).toEqual([]);
  const exp = Math.floor(Date.now() / 1000) + 600;
  const forged = downloadPath(id, productId, exp, downloadSignature(token, id, productId, exp));
  expect((await appFetch(`http://localhost${forged}`)).status).toBe(404);
}

/** The API with other x402 limits, behind a proxy (each test's client its own address). */
function limitedApp(limits: Partial<ApiConfig['rateLimits']>) {
  const config: ApiConfig = {
    ...t.config,
    trustProxy: true,
    rateLimits: { ...t.config.rateLimits, ...limits },
  };
  const app = createApp({
    db: t.database.db,
    config,
    chain: createPublicClient({ transport: http(config.chain.rpcUrl) }),
  });
  return (url: string, client: string, init: RequestInit = {}) =>
    app.handle(
      new Request(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': client },
      }),
    );
}

const ordersOf = async (storeId: string) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.storeId, storeId), sql`${orders.metadata} ? 'x402'`))
  )[0]?.n;

describe('limits that fit agents', () => {
  test('a stranger asking for 402s cannot fill the database: each one counts, the 4th is refused and opens nothing', async () => {
    const { store, product } = await fileProduct('0.20');
    const fetchLimited = limitedApp({ x402OffersPerMinute: 3 });
    const stranger = '198.51.100.23';
    for (let i = 0; i < 3; i++)
      expect((await fetchLimited(product.x402Url, stranger)).status).toBe(402);
    expect(await ordersOf(store.id)).toBe(3);
    const refused = await fetchLimited(product.x402Url, stranger);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'Too many payment requirements',
    );
    // A garbage or unknown-payTo signature would open an order too: refused the same way.
    const garbage = await fetchLimited(product.x402Url, stranger, {
      headers: { 'PAYMENT-SIGNATURE': 'bm90LWpzb24=' },
    });
    expect(garbage.status).toBe(429);
    expect(await ordersOf(store.id)).toBe(3);
    // Another client is not held back by this one.
    expect((await fetchLimited(product.x402Url, '198.51.100.24')).status).toBe(402);
    expect(await ordersOf(store.id)).toBe(4);
  });

  test('signed payments are limited per payer address', async () => {
    const { product } = await fileProduct('0.05');
    const fetchLimited = limitedApp({ x402PayerPerMinute: 2 });
    const account = localAccount(4);
    const { client } = x402Agent(t, account, (request) => appFetch(request));
    const required = await (await fetchLimited(product.x402Url, '198.51.100.40')).headers.get(
      'PAYMENT-REQUIRED',
    );
    const payload = await client.createPaymentPayload(
      JSON.parse(Buffer.from(required ?? '', 'base64').toString('utf8')),
    );
    const signed = {
      headers: { 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payload)).toString('base64') },
    };
    // Note: from different networks: the limit follows the payer, not the client.
    expect((await fetchLimited(product.x402Url, '198.51.100.41', signed)).status).toBe(200);
    expect((await fetchLimited(product.x402Url, '198.51.100.42', signed)).status).toBe(200);
    const third = await fetchLimited(product.x402Url, '198.51.100.43', signed);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { message: string } }).error.message).toContain(
      'Too many payments from this payer address',
    );
  }, 60_000);
});
