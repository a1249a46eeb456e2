// The x402 scenarios a deployment must pass, shared by the local stack (x402.test.ts, chain 31337)
// and the Base rehearsal (base-rehearsal.test.ts, chain 8453 with Circle's USDC at its real
// address): an agent with the reference client (`@x402/fetch` with an `@x402/evm` signer) fetches
// a digital product's `x402Url`, gets the 402, pays, gets the merchant API's answer; the order is
// paid, forwarded 98/2 (read from the chain to the base unit) and webhooked; the same
// authorization sent again is not charged again; an upstream failure refunds the payer on chain.
import { expect } from 'bun:test';
import { splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import type { localAccount } from '@store/stack/usdc';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { eq } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hash,
  http,
  parseEventLogs,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { App } from '../../src/app.ts';
import { usdcAbi } from '../../src/chain/usdc-abi.ts';
import type { ApiConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { orders, refunds, x402Payments } from '../../src/db/schema.ts';
import { newMerchant, storeForm } from './client.ts';
import { waitForForwarded } from './payments.ts';
import { balancesOf, ledgerBreaches, waitUntil } from './settlement.ts';
import { x402Agent } from './x402.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** The secret header value the merchant's API wants (never shown to a client). */
export const UPSTREAM_SECRET = 'up-secret-4c1d';

/** The merchant's API: answers only requests carrying its secret; fails while `failing`. */
export function merchantUpstream() {
  const calls: { secret: string | null; url: string }[] = [];
  let failing = false;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => {
      const secret = request.headers.get('x-api-secret');
      calls.push({ secret, url: request.url });
      if (secret !== UPSTREAM_SECRET) return new Response('forbidden', { status: 403 });
      if (failing) return new Response('down', { status: 500 });
      const q = new URL(request.url).searchParams.get('q');
      return Response.json({ answer: 42, q, call: calls.length });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1/answer`,
    calls,
    fail: (on: boolean) => {
      failing = on;
    },
    stop: () => server.stop(true),
  };
}
export type MerchantUpstream = ReturnType<typeof merchantUpstream>;

/** Where a scenario runs: the API, a pool of its database, its config, a webhook receiver, the merchant's API. */
export interface X402Deployment {
  app: App;
  db: Database;
  config: ApiConfig;
  receiver: { url: string; received: { body: string }[] };
  upstream: MerchantUpstream;
  /** How long forwarding may take (the deployment's depth at its block time); 20 s by default. */
  forwardingTimeoutMs?: number;
}

/** What the 402 must name on this deployment. */
export interface ExpectedOffer {
  /** CAIP-2, e.g. 'eip155:8453'. */
  network: string;
  /** The USDC contract, checksummed. */
  asset: Address;
  /** The token's EIP-712 domain name. */
  tokenName: string;
}

/** The chain facts the ledger and balance helpers read. */
const envOf = (d: X402Deployment) => ({
  RPC_URL: d.config.chain.rpcUrl,
  USDC_ADDRESS: d.config.chain.usdc,
  TREASURY_ADDRESS: d.config.treasuryAddress,
});

export const chainClientOfDeployment = (d: X402Deployment) =>
  createPublicClient({ transport: http(d.config.chain.rpcUrl) });

/** The API as a fetch function (what the agent's HTTP client talks to). */
export const appFetchOf = (d: X402Deployment) => (input: string | Request, init?: RequestInit) =>
  d.app.handle(typeof input === 'string' ? new Request(input, init) : new Request(input, init));

/** An agent: the reference client signing with `account`, talking to the deployment's API. */
export const agentOf = (d: X402Deployment, account: ReturnType<typeof localAccount>) =>
  x402Agent(d, account, (request) => appFetchOf(d)(request));

/** Decodes a base64 JSON header of x402. */
export const decodeX402 = (header: string | null) =>
  JSON.parse(Buffer.from(header ?? '', 'base64').toString('utf8'));

/** The 402's PAYMENT-REQUIRED of `url`, decoded. */
export async function requirementsOf(d: X402Deployment, url: string) {
  const response = await appFetchOf(d)(url);
  expect(response.status).toBe(402);
  return decodeX402(response.headers.get('PAYMENT-REQUIRED'));
}

/** The USDC transfers of a transaction. */
export const transfersOf = async (d: X402Deployment, hash: Hash) =>
  parseEventLogs({
    abi: usdcAbi,
    eventName: 'Transfer',
    logs: (await chainClientOfDeployment(d).getTransactionReceipt({ hash })).logs,
  });

/** The first webhook of `type` for `orderId` the receiver got, parsed. */
export const webhookOf = (d: X402Deployment, orderId: string, type: string) =>
  waitUntil(
    () =>
      d.receiver.received
        .map((r) => JSON.parse(r.body))
        .find((p) => p.orderId === orderId && p.type === type),
    `${type} of ${orderId}`,
  );

/** A merchant's store paying out to a fresh address, with an API resource at `price`. */
export async function apiProduct(d: X402Deployment, price = '0.25') {
  const owner = await newMerchant(d.app, 'x402');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  expect(
    (await owner.api.put(`/api/stores/${store.id}/webhook`, { url: d.receiver.url })).status,
  ).toBe(200);
  const created = await owner.api.post('/api/products', {
    storeId: store.id,
    title: 'Answer API',
    priceUsdc: price,
    digital: {
      kind: 'api',
      upstreamUrl: d.upstream.url,
      secretHeaderName: 'X-Api-Secret',
      secretHeaderValue: UPSTREAM_SECRET,
    },
  });
  expect(created.status).toBe(201);
  return { owner, payout, store, product: created.body };
}

/** The order whose deposit address is `payTo`. */
async function orderAt(d: X402Deployment, payTo: string) {
  const [order] = await d.db.select().from(orders).where(eq(orders.paymentAddress, payTo));
  if (!order) throw new Error(`no order for the payTo ${payTo}`);
  return order;
}

/**
 * 402, pay with `@x402/fetch`, the resource; the order paid, forwarded 98/2 (to the base unit on
 * the chain) and webhooked with the payer; the same authorization again answered the same and
 * not charged; the chain's ledger holds.
 */
export async function payThenReplay(
  d: X402Deployment,
  account: ReturnType<typeof localAccount>,
  expected: ExpectedOffer,
) {
  const fetchApp = appFetchOf(d);
  const env = envOf(d);
  const { owner, payout, store, product } = await apiProduct(d, '0.25');
  expect(product.x402Url).toBe(`http://localhost/api/x402/products/${product.id}`);
  expect(product.digital).toEqual({
    kind: 'api',
    upstreamUrl: d.upstream.url,
    secretHeaderName: 'X-Api-Secret',
    hasSecret: true,
  });
  expect(JSON.stringify(product)).not.toContain(UPSTREAM_SECRET);

  // The 402: x402 v2, exact, this chain as CAIP-2, USDC, the price in base units, a fresh
  // deposit address, and the token's EIP-712 domain as the deployed contract has it.
  const required = await requirementsOf(d, `${product.x402Url}?q=life`);
  expect(required.x402Version).toBe(2);
  expect(required.resource.url).toBe(`${product.x402Url}?q=life`);
  expect(required.accepts).toHaveLength(1);
  const [offer] = required.accepts;
  expect(offer).toMatchObject({
    scheme: 'exact',
    network: expected.network,
    amount: '250000',
    asset: expected.asset,
    maxTimeoutSeconds: 300,
    extra: { name: expected.tokenName, version: '2' },
  });
  const token = { address: expected.asset, abi: usdcAbi } as const;
  const chain = chainClientOfDeployment(d);
  expect(await chain.readContract({ ...token, functionName: 'name' })).toBe(expected.tokenName);
  expect(await chain.readContract({ ...token, functionName: 'version' })).toBe('2');
  expect(`eip155:${await chain.getChainId()}`).toBe(expected.network);
  const offeredOrder = await orderAt(d, offer.payTo);
  expect(offeredOrder).toMatchObject({ status: 'pending', totalUsdc: '0.25' });
  // Every 402 has its own address.
  expect((await requirementsOf(d, product.x402Url)).accepts[0].payTo).not.toBe(offer.payTo);

  // The agent pays: 402, sign, settle, then the merchant's API answers through us.
  const payer = getAddress(account.address);
  const before = (await balancesOf(env, payer)).usdc;
  const treasury = d.config.treasuryAddress;
  const treasuryBefore = (await balancesOf(env, treasury)).usdc;
  const { pay, sent } = agentOf(d, account);
  const callsBefore = d.upstream.calls.length;
  const response = await pay(`${product.x402Url}?q=life`);
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ answer: 42, q: 'life' });
  expect(d.upstream.calls.length).toBe(callsBefore + 1);
  expect(d.upstream.calls.at(-1)?.secret).toBe(UPSTREAM_SECRET);
  const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
  expect(settled).toMatchObject({ success: true, network: expected.network, payer });
  const signed = sent.at(-1)?.get('PAYMENT-SIGNATURE') ?? '';
  const payTo = getAddress(decodeX402(signed).accepted.payTo);
  const [transfer] = await transfersOf(d, settled.transaction as Hash);
  expect(transfer?.args).toEqual({ from: payer, to: payTo, value: usdc('0.25') });
  expect((await balancesOf(env, payer)).usdc).toBe(before - usdc('0.25'));

  // The order took the path of every order: paid, forwarded 98/2, webhooked with the payer.
  const order = await orderAt(d, payTo);
  await waitForForwarded(d.db, order.id, d.forwardingTimeoutMs);
  expect(await d.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toEqual([]);
  const { merchant, fee } = splitFee(usdc('0.25'));
  expect((await balancesOf(env, payout)).usdc).toBe(merchant);
  expect((await balancesOf(env, treasury)).usdc - treasuryBefore).toBe(fee);
  expect((await balancesOf(env, payTo)).usdc).toBe(0n);
  const paid = await webhookOf(d, order.id, 'order.paid');
  expect(paid.x402).toEqual({ resource: `${product.x402Url}?q=life`, payer });
  expect(paid.items).toEqual([
    expect.objectContaining({ productId: product.id, quantity: 1, priceUsdc: '0.25' }),
  ]);
  await webhookOf(d, order.id, 'order.forwarded');
  const merchantOrder = await owner.api.get(`/api/orders/${order.id}`);
  expect(merchantOrder.body.status).toBe('paid');
  // The store's books (the accounting export) hold it as any order: the payment in and its legs.
  const books = await waitUntil(async () => {
    const rows = (await owner.api.get(`/api/stores/${store.id}/money-movements`)).body as {
      type: string;
      orderId: string;
      amountBaseUnits: string;
    }[];
    const mine = rows.filter((row) => row.orderId === order.id);
    return mine.some((row) => row.type === 'merchant') && mine;
  }, `the books of ${order.id}`);
  const amountOf = (type: string) =>
    books.filter((row) => row.type === type).map((row) => BigInt(row.amountBaseUnits));
  expect(amountOf('payment')).toEqual([usdc('0.25')]);
  expect(amountOf('merchant')).toEqual([merchant]);

  // The same authorization again: the same answer, not charged, the API not called again.
  const replay = await fetchApp(`${product.x402Url}?q=life`, {
    headers: { 'PAYMENT-SIGNATURE': signed },
  });
  expect(replay.status).toBe(200);
  expect(await replay.json()).toEqual(body);
  expect(decodePaymentResponseHeader(replay.headers.get('PAYMENT-RESPONSE') ?? '')).toEqual(
    settled,
  );
  expect(d.upstream.calls.length).toBe(callsBefore + 1);
  expect((await balancesOf(env, payer)).usdc).toBe(before - usdc('0.25'));
  const rows = await d.db.select().from(x402Payments).where(eq(x402Payments.orderId, order.id));
  expect(rows).toHaveLength(1);
  // Settled and served, with the transaction's hash kept and its signed bytes no longer.
  expect(rows[0]).toMatchObject({ status: 'served', txHash: settled.transaction });
  expect(rows[0]?.rawTransaction).toBeNull();

  const ledger = await chainLedger(env, d.db);
  expect(ledger.breaches).toEqual([]);
  expect(ledger.authorizationsUsedTwice).toEqual([]);
  expect(await ledgerBreaches(d.db)).toEqual([]);
  return { offer, settled, order };
}

/** An upstream failure after payment: 502, and the payer (the signer) refunded on chain. */
export async function upstreamFailureRefunds(
  d: X402Deployment,
  account: ReturnType<typeof localAccount>,
) {
  const env = envOf(d);
  const { payout, product } = await apiProduct(d, '0.30');
  const payer = getAddress(account.address);
  const before = (await balancesOf(env, payer)).usdc;
  const { pay, sent } = agentOf(d, account);
  d.upstream.fail(true);
  let response: Response;
  try {
    response = await pay(product.x402Url);
  } finally {
    d.upstream.fail(false);
  }
  expect(response.status).toBe(502);
  const failed = await response.json();
  expect(failed).toMatchObject({ refund: { to: payer, amount: '0.300000' } });
  const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
  expect(settled).toMatchObject({ success: true, payer });
  const payTo = getAddress(decodeX402(sent.at(-1)?.get('PAYMENT-SIGNATURE') ?? '').accepted.payTo);
  const order = await orderAt(d, payTo);
  const refund = await waitUntil(
    async () => {
      const [row] = await d.db.select().from(refunds).where(eq(refunds.orderId, order.id));
      return row?.status === 'refunded' && row;
    },
    'the refund',
    d.forwardingTimeoutMs,
  );
  expect(refund).toMatchObject({ reason: 'undelivered', toAddress: payer, amount: '300000' });
  const [back] = await transfersOf(d, refund.txHash as Hash);
  expect(back?.args).toEqual({ from: payTo, to: payer, value: usdc('0.30') });
  expect((await balancesOf(env, payer)).usdc).toBe(before);
  expect((await balancesOf(env, payout)).usdc).toBe(0n);
  expect((await balancesOf(env, payTo)).usdc).toBe(0n);
  const refunded = await webhookOf(d, order.id, 'order.refunded');
  expect(refunded.refund).toMatchObject({ reason: 'undelivered', toAddress: payer });
  const ledger = await chainLedger(env, d.db);
  expect(ledger.breaches).toEqual([]);
  return { order, refund };
}
