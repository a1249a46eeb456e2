// Agents paying a digital product over HTTP 402 (x402 v2) on the real chain: Postgres, anvil
// (200 ms blocks) with Circle's USDC, the indexer and the worker's loops in-process, and the
// reference client (`@x402/fetch` with an `@x402/evm` signer for an anvil account). The payable
// URL answers 402 with a fresh deposit address; the signed authorization is settled by our
// relayer, the merchant's API answers through us, and the order is paid, forwarded 98/2 (read
// from the chain to the base unit) and webhooked. The same authorization sent again is not
// charged again; an upstream failure refunds the payer on chain; strangers cannot read or change
// the product's settings; a wrong amount or payee charges nothing.

import { afterAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import { localAccount } from '@store/stack/usdc';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { eq } from 'drizzle-orm';
import { type Address, getAddress, type Hash, parseEventLogs, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { orders, refunds, x402Payments } from '../src/db/schema.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { waitForForwarded } from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';
import { chainClientOf, useX402Stack, x402Agent } from './support/x402.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const SECRET = 'up-secret-4c1d';

const receiver = webhookReceiver();
/** The merchant's API: answers only requests carrying its secret; fails while `failing`. */
const upstream = (() => {
  const calls: { secret: string | null; url: string }[] = [];
  let failing = false;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => {
      const secret = request.headers.get('x-api-secret');
      calls.push({ secret, url: request.url });
      if (secret !== SECRET) return new Response('forbidden', { status: 403 });
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
})();

const t = useX402Stack();
afterAll(() => {
  receiver.stop();
  upstream.stop();
});

const chainClient = () => chainClientOf(t);

/** The API as a fetch function (what the agent's HTTP client talks to). */
const appFetch = (input: string | Request, init?: RequestInit) =>
  t.app.handle(typeof input === 'string' ? new Request(input, init) : new Request(input, init));

/** An agent: the reference client signing with `account`, talking to our API. */
const agent = (account: ReturnType<typeof localAccount>) =>
  x402Agent(t, account, (request) => appFetch(request));

/** A merchant's store paying out to a fresh address, with an API resource at `price`. */
async function apiProduct(price = '0.25') {
  const owner = await newMerchant(t.app, 'x402');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
  const created = await owner.api.post('/api/products', {
    storeId: store.id,
    title: 'Answer API',
    priceUsdc: price,
    digital: {
      kind: 'api',
      upstreamUrl: upstream.url,
      secretHeaderName: 'X-Api-Secret',
      secretHeaderValue: SECRET,
    },
  });
  expect(created.status).toBe(201);
  return { owner, payout, store, product: created.body };
}

const decode = (header: string | null) =>
  JSON.parse(Buffer.from(header ?? '', 'base64').toString('utf8'));

async function requirementsOf(url: string) {
  const response = await appFetch(url);
  expect(response.status).toBe(402);
  return decode(response.headers.get('PAYMENT-REQUIRED'));
}

const transfersOf = async (hash: Hash) =>
  parseEventLogs({
    abi: usdcAbi,
    eventName: 'Transfer',
    logs: (await chainClient().getTransactionReceipt({ hash })).logs,
  });

const webhookOf = (orderId: string, type: string) =>
  waitUntil(
    () =>
      receiver.received
        .map((r) => JSON.parse(r.body))
        .find((p) => p.orderId === orderId && p.type === type),
    `${type} of ${orderId}`,
  );

describe('an API resource paid over HTTP 402', () => {
  test('402, pay with @x402/fetch, the resource; paid, forwarded 98/2 and webhooked; a replay is not charged again', async () => {
    const { owner, payout, product } = await apiProduct('0.25');
    expect(product.x402Url).toBe(`http://localhost/api/x402/products/${product.id}`);
    expect(product.digital).toEqual({
      kind: 'api',
      upstreamUrl: upstream.url,
      secretHeaderName: 'X-Api-Secret',
      hasSecret: true,
    });
    expect(JSON.stringify(product)).not.toContain(SECRET);

    // The 402: x402 v2, exact, this chain as CAIP-2, USDC, the price in base units, a fresh
    // deposit address, and the token's EIP-712 domain as the deployed contract has it.
    const required = await requirementsOf(`${product.x402Url}?q=life`);
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toBe(`${product.x402Url}?q=life`);
    expect(required.accepts).toHaveLength(1);
    const [offer] = required.accepts;
    expect(offer).toMatchObject({
      scheme: 'exact',
      network: 'eip155:31337',
      amount: '250000',
      asset: getAddress(t.stack.env.USDC_ADDRESS as string),
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    });
    const token = { address: t.stack.env.USDC_ADDRESS as Address, abi: usdcAbi } as const;
    expect(await chainClient().readContract({ ...token, functionName: 'name' })).toBe('USD Coin');
    expect(await chainClient().readContract({ ...token, functionName: 'version' })).toBe('2');
    const [offeredOrder] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.paymentAddress, offer.payTo));
    expect(offeredOrder).toMatchObject({ status: 'pending', totalUsdc: '0.25' });
    // Every 402 has its own address.
    expect((await requirementsOf(product.x402Url)).accepts[0].payTo).not.toBe(offer.payTo);

    // The agent pays: 402, sign, settle, then the merchant's API answers through us.
    const account = localAccount(5);
    const payer = getAddress(account.address);
    const before = (await balancesOf(t.stack.env, payer)).usdc;
    const treasury = t.stack.env.TREASURY_ADDRESS as Address;
    const treasuryBefore = (await balancesOf(t.stack.env, treasury)).usdc;
    const { pay, sent } = agent(account);
    const callsBefore = upstream.calls.length;
    const response = await pay(`${product.x402Url}?q=life`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ answer: 42, q: 'life' });
    expect(upstream.calls.length).toBe(callsBefore + 1);
    expect(upstream.calls.at(-1)?.secret).toBe(SECRET);
    const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
    expect(settled).toMatchObject({ success: true, network: 'eip155:31337', payer });
    const signed = sent.at(-1)?.get('PAYMENT-SIGNATURE') ?? '';
    const payTo = getAddress(decode(signed).accepted.payTo);
    const [transfer] = await transfersOf(settled.transaction as Hash);
    expect(transfer?.args).toEqual({ from: payer, to: payTo, value: usdc('0.25') });
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(before - usdc('0.25'));

    // The order took the path of every order: paid, forwarded 98/2, webhooked with the payer.
    const [order] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.paymentAddress, payTo));
    if (!order) throw new Error('no order for the payTo');
    await waitForForwarded(t.database.db, order.id);
    expect(await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toEqual(
      [],
    );
    const { merchant, fee } = splitFee(usdc('0.25'));
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(merchant);
    expect((await balancesOf(t.stack.env, treasury)).usdc - treasuryBefore).toBe(fee);
    expect((await balancesOf(t.stack.env, payTo)).usdc).toBe(0n);
    const paid = await webhookOf(order.id, 'order.paid');
    expect(paid.x402).toEqual({ resource: `${product.x402Url}?q=life`, payer });
    expect(paid.items).toEqual([
      expect.objectContaining({ productId: product.id, quantity: 1, priceUsdc: '0.25' }),
    ]);
    await webhookOf(order.id, 'order.forwarded');
    const merchantOrder = await owner.api.get(`/api/orders/${order.id}`);
    expect(merchantOrder.body.status).toBe('paid');

    // The same authorization again: the same answer, not charged, the API not called again.
    const replay = await appFetch(`${product.x402Url}?q=life`, {
      headers: { 'PAYMENT-SIGNATURE': signed },
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(body);
    expect(decodePaymentResponseHeader(replay.headers.get('PAYMENT-RESPONSE') ?? '')).toEqual(
      settled,
    );
    expect(upstream.calls.length).toBe(callsBefore + 1);
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(before - usdc('0.25'));
    expect(
      await t.database.db.select().from(x402Payments).where(eq(x402Payments.orderId, order.id)),
    ).toHaveLength(1);

    const ledger = await chainLedger(t.stack.env, t.database.db);
    expect(ledger.breaches).toEqual([]);
    expect(ledger.authorizationsUsedTwice).toEqual([]);
    expect(await ledgerBreaches(t.database.db)).toEqual([]);
  }, 60_000);

  test('the same signature sent concurrently is charged once and both get the same answer', async () => {
    const { product } = await apiProduct('0.10');
    const account = localAccount(6);
    const before = (await balancesOf(t.stack.env, account.address)).usdc;
    const { client } = agent(account);
    const payload = await client.createPaymentPayload(await requirementsOf(product.x402Url));
    const header = Buffer.from(JSON.stringify(payload)).toString('base64');
    const callsBefore = upstream.calls.length;
    const answers = await Promise.all(
      [1, 2, 3].map(() => appFetch(product.x402Url, { headers: { 'PAYMENT-SIGNATURE': header } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(answers.map((a) => a.headers.get('PAYMENT-RESPONSE'))).size).toBe(1);
    expect(upstream.calls.length).toBe(callsBefore + 1);
    expect((await balancesOf(t.stack.env, account.address)).usdc).toBe(before - usdc('0.10'));
  }, 60_000);

  test('an upstream failure after payment refunds the payer on chain, to the signer', async () => {
    const { payout, product } = await apiProduct('0.30');
    const account = localAccount(7);
    const payer = getAddress(account.address);
    const before = (await balancesOf(t.stack.env, payer)).usdc;
    const { pay, sent } = agent(account);
    upstream.fail(true);
    let response: Response;
    try {
      response = await pay(product.x402Url);
    } finally {
      upstream.fail(false);
    }
    expect(response.status).toBe(502);
    const failed = await response.json();
    expect(failed).toMatchObject({ refund: { to: payer, amount: '0.300000' } });
    const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
    expect(settled).toMatchObject({ success: true, payer });
    const payTo = getAddress(decode(sent.at(-1)?.get('PAYMENT-SIGNATURE') ?? '').accepted.payTo);
    const [order] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.paymentAddress, payTo));
    if (!order) throw new Error('no order for the payTo');
    const refund = await waitUntil(async () => {
      const [row] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
      return row?.status === 'refunded' && row;
    }, 'the refund');
    expect(refund).toMatchObject({ reason: 'undelivered', toAddress: payer, amount: '300000' });
    const [back] = await transfersOf(refund.txHash as Hash);
    expect(back?.args).toEqual({ from: payTo, to: payer, value: usdc('0.30') });
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(before);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(0n);
    expect((await balancesOf(t.stack.env, payTo)).usdc).toBe(0n);
    const refunded = await webhookOf(order.id, 'order.refunded');
    expect(refunded.refund).toMatchObject({ reason: 'undelivered', toAddress: payer });
    const ledger = await chainLedger(t.stack.env, t.database.db);
    expect(ledger.breaches).toEqual([]);
  }, 60_000);
});

describe('trust', () => {
  test("another merchant and anonymous clients cannot read the secret or change a product's API settings", async () => {
    const { owner, product } = await apiProduct();
    const stranger = await newMerchant(t.app, 'x402-stranger');
    const anonymous = apiClient(t.app);
    const change = { digital: { kind: 'api', upstreamUrl: 'https://evil.example/steal' } };
    expect((await stranger.api.put(`/api/products/${product.id}`, change)).status).toBe(404);
    expect((await anonymous.put(`/api/products/${product.id}`, change)).status).toBe(401);
    for (const reader of [stranger.api, anonymous, owner.api]) {
      const seen = await reader.get(`/api/products/${product.id}`);
      expect(JSON.stringify(seen.body)).not.toContain(SECRET);
    }
    const mine = await owner.api.get(`/api/products/${product.id}`);
    expect(mine.body.digital).toMatchObject({ upstreamUrl: upstream.url, hasSecret: true });
    // An edit that leaves the secret out keeps it; the resource still works.
    const edited = await owner.api.put(`/api/products/${product.id}`, {
      digital: { kind: 'api', upstreamUrl: upstream.url, secretHeaderName: 'X-Api-Secret' },
    });
    expect(edited.body.digital.hasSecret).toBe(true);
    // Caps: an oversized secret is refused.
    const huge = await owner.api.put(`/api/products/${product.id}`, {
      digital: {
        kind: 'api',
        upstreamUrl: upstream.url,
        secretHeaderName: 'X',
        secretHeaderValue: 'x'.repeat(1025),
      },
    });
    expect(huge.status).toBe(422);
  });

  test('an underpaying or wrong-payTo signature is refused and charges nothing', async () => {
    const { product } = await apiProduct('0.50');
    const account = localAccount(8);
    const before = (await balancesOf(t.stack.env, account.address)).usdc;
    const { scheme } = agent(account);
    const required = await requirementsOf(product.x402Url);
    const [offer] = required.accepts;
    const send = async (accepted: typeof offer) => {
      const partial = await scheme.createPaymentPayload(2, accepted);
      const payload = {
        x402Version: 2,
        resource: required.resource,
        accepted,
        payload: partial.payload,
      };
      return appFetch(product.x402Url, {
        headers: { 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payload)).toString('base64') },
      });
    };
    const under = await send({ ...offer, amount: '1000' });
    expect(under.status).toBe(402);
    expect(decode(under.headers.get('PAYMENT-REQUIRED')).error).toContain('authorization_value');
    const elsewhere = await send({ ...offer, payTo: freshAddress() });
    expect(elsewhere.status).toBe(402);
    expect(decode(elsewhere.headers.get('PAYMENT-REQUIRED')).error).toContain('payTo');
    // A payer without the money is refused before anything is sent to the chain.
    const poor = agent(privateKeyToAccount(generatePrivateKey()) as never);
    const broke = await poor.pay(product.x402Url);
    expect(broke.status).toBe(402);
    expect(decode(broke.headers.get('PAYMENT-REQUIRED')).error).toContain('insufficient_funds');
    await Bun.sleep(600);
    expect((await balancesOf(t.stack.env, account.address)).usdc).toBe(before);
    expect((await balancesOf(t.stack.env, offer.payTo)).usdc).toBe(0n);
    const rows = await t.database.db
      .select()
      .from(x402Payments)
      .where(eq(x402Payments.payTo, offer.payTo.toLowerCase()));
    expect(rows).toEqual([]);
  });
});
