// Helpers of the admin journeys: a merchant, store, products and paid orders made through the real
// API with the page's own cookie jar (so the browser is signed in as that merchant), unique names.
import { type APIRequestContext, expect } from '@playwright/test';
import {
  DEFAULT_TAX_RATE_BPS,
  defaultShippingOptions,
  formatUsdcFull,
  parseUsdc,
  shippingFor,
  storeCheckoutTotals,
} from '@store/shared';
import { readStackInfo } from '@store/stack/stack-info';
import { payUsdc } from './support/pay.ts';

/** The password every e2e merchant uses. */
export const PASSWORD = 'correct horse battery';

/** The journeys' store settings (8% tax; free, standard and express shipping), sent when creating a store. */
export const JOURNEY_SETTINGS = {
  taxRateBps: DEFAULT_TAX_RATE_BPS,
  shippingOptions: defaultShippingOptions(),
};

/** A name unique to this run (usernames: lowercase letters, digits, hyphens). */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

async function post<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, {
    data,
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** Signs up a merchant; the request context keeps its session cookie. */
export async function signUp(request: APIRequestContext, username = unique('merchant')) {
  await post(request, '/api/auth/sign-up', { username, password: PASSWORD });
  return username;
}

/**
 * A store of the signed-in merchant, with the journeys' settings set (8% tax; free, standard and express
 * shipping): the journeys' totals count on them (a store created without any has none of either).
 */
export async function createStore(request: APIRequestContext, name: string) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return post<{ id: string; slug: string; name: string }>(request, '/api/stores', {
    name,
    slug,
    paymentAddress: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    logoUrl: '🕯️',
    ...JOURNEY_SETTINGS,
  });
}

/** A product of one of the signed-in merchant's stores. */
export async function createProduct(
  request: APIRequestContext,
  storeId: string,
  fields: { title: string; priceUsdc: string; inventory?: number },
) {
  return post<{ id: string; updatedAt: string }>(request, '/api/products', {
    storeId,
    ...fields,
  });
}

/** The store's products as its owner sees them. */
export async function listProducts(request: APIRequestContext, storeId: string) {
  const response = await request.get(`/api/stores/${storeId}/products`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as { id: string; title: string; priceUsdc: string }[];
}

/** A shopper of the order helpers. */
const shopper = {
  customerEmail: 'ada@example.com',
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '555-0100',
    street: '12 Hudson Street',
    city: 'New York',
    state: 'NY',
    zipCode: '10001',
  },
};

/** A store order of `quantity` × the product, placed through the API (free shipping). */
export async function placeOrder(
  request: APIRequestContext,
  storeId: string,
  product: { id: string; title: string; priceUsdc: string },
  quantity = 1,
) {
  const items = [
    { productId: product.id, title: product.title, priceUsdc: product.priceUsdc, quantity },
  ];
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  return post<{ id: string; totalUsdc: string; reviewToken: string }>(request, '/api/orders', {
    storeId,
    ...shopper,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    shippingMethod: 'free',
  });
}

/** The order's deposit address on Base, asked for as the payment page asks for it. */
export async function depositAddressOf(request: APIRequestContext, orderId: string) {
  const wallet = await post<{ paymentWallet: { address: string } }>(
    request,
    `/api/orders/${orderId}/assign-payment-wallet`,
    { paymentChain: 'base' },
  );
  return wallet.paymentWallet.address;
}

/** Pays the order in full on the local chain from test account `fromAccount`; waits for 'paid'. */
export async function payOrder(
  request: APIRequestContext,
  order: { id: string; totalUsdc: string },
  fromAccount: number,
) {
  const address = await depositAddressOf(request, order.id);
  await payUsdc(readStackInfo(), address, order.totalUsdc, fromAccount);
  await expect
    .poll(async () => (await (await request.get(`/api/orders/${order.id}`)).json()).status, {
      timeout: 45_000,
    })
    .toBe('paid');
}

/**
 * Pays `amountUsdc` of the order (less than its total: underpaid) from test account
 * `fromAccount`; waits until the order's refunds count it as received, and gives the deposit
 * address.
 */
export async function payPartOfOrder(
  request: APIRequestContext,
  orderId: string,
  amountUsdc: string,
  fromAccount: number,
) {
  const address = await depositAddressOf(request, orderId);
  await payUsdc(readStackInfo(), address, amountUsdc, fromAccount);
  const received = formatUsdcFull(parseUsdc(amountUsdc));
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/orders/${orderId}/refunds`)).json()).receivedAmount,
      { timeout: 45_000 },
    )
    .toBe(received);
  return address;
}
