// A merchant's own x402 server pointed at our facilitator, on the real chain: Postgres, anvil
// (200 ms blocks) with Circle's USDC, the indexer and the worker's loops in-process. The merchant
// runs the reference seller middleware (`@x402/hono`) with our facilitator URL and its API key,
// and a dynamic `payTo` it asks us for per request (POST /api/x402/pay-to); the reference client
// (`@x402/fetch` with an `@x402/evm` signer) pays it. The resource is served, the order of the
// merchant's store is paid, forwarded 98/2 (read from the chain to the base unit) and webhooked;
// the same settlement sent again is not charged again. Another merchant's key cannot verify or
// settle against its deposit addresses, nor ask one for its store; anonymous calls get 401.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import { localAccount } from '@store/stack/usdc';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { type Address, getAddress, type Hash, parseEventLogs, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { orders, x402Payments } from '../src/db/schema.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { waitForForwarded } from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';
import { chainClientOf, useX402Stack, x402Agent } from './support/x402.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const receiver = webhookReceiver();
const t = useX402Stack();

/** Our API on a real port: the merchant's middleware reaches the facilitator over HTTP. */
let ours: ReturnType<typeof Bun.serve>;
let origin: string;
beforeAll(() => {
  ours = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => t.app.handle(request) });
  origin = `http://127.0.0.1:${ours.port}`;
});
afterAll(() => {
  receiver.stop();
  ours?.stop(true);
});

const chainClient = () => chainClientOf(t);

/** A merchant with a store paying out to a fresh address, webhooked, and an API key. */
async function merchant() {
  const owner = await newMerchant(t.app, 'x402f');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
  const key = (await owner.api.post('/api/api-keys', { name: 'x402 server' })).body.key as string;
  const bearer = { authorization: `Bearer ${key}` };
  const api = apiClient(t.app);
  return {
    owner,
    payout,
    store,
    key,
    post: (path: string, body: unknown) => api.post(path, body, { headers: bearer }),
    get: (path: string) => api.get(path, { headers: bearer }),
  };
}

type Merchant = Awaited<ReturnType<typeof merchant>>;

/**
 * The merchant's own server: Hono with the reference seller middleware, our facilitator, and a
 * `payTo` per request asked of our API (the paid retry names the one it was offered).
 */
function merchantServer(m: Merchant, price: string) {
  const network = `eip155:${t.config.chain.chainId}` as const;
  const asked: string[] = [];
  const facilitator = new HTTPFacilitatorClient({
    url: `${origin}/api/x402/facilitator`,
    createAuthHeaders: async () => {
      const auth = { Authorization: `Bearer ${m.key}` };
      return { verify: auth, settle: auth, supported: auth };
    },
  });
  const server = new x402ResourceServer(facilitator).register(network, new ExactEvmServerScheme());
  const app = new Hono();
  app.use(
    paymentMiddleware(
      {
        'GET /weather': {
          accepts: {
            scheme: 'exact',
            network,
            price: {
              amount: usdc(price).toString(),
              asset: getAddress(t.stack.env.USDC_ADDRESS as string),
              extra: { name: 'USD Coin', version: '2' },
            },
            payTo: async (context) => {
              // Note: the paid retry is matched against what it was offered: its own payTo.
              if (context.paymentHeader) {
                const signed = JSON.parse(Buffer.from(context.paymentHeader, 'base64').toString());
                return signed.accepted.payTo as string;
              }
              const response = await fetch(`${origin}/api/x402/pay-to`, {
                method: 'POST',
                headers: { authorization: `Bearer ${m.key}`, 'content-type': 'application/json' },
                body: JSON.stringify({
                  storeId: m.store.id,
                  amountUsdc: price,
                  resource: 'https://merchant.example/weather',
                  description: 'Weather report',
                }),
              });
              const offered = (await response.json()) as { payTo: string };
              asked.push(offered.payTo);
              return offered.payTo;
            },
          },
          description: 'Weather report',
        },
      },
      server,
    ),
  );
  app.get('/weather', (c) => c.json({ weather: 'sunny', degrees: 21 }));
  return { app, asked };
}

/** An agent: the reference client signing with `account`, talking to `target`. */
const agent = (
  account: ReturnType<typeof localAccount>,
  target: (request: Request) => Promise<Response>,
) => x402Agent(t, account, target);

const decode = (header: string | null | undefined) =>
  JSON.parse(Buffer.from(header ?? '', 'base64').toString('utf8'));

const webhookOf = (orderId: string, type: string) =>
  waitUntil(
    () =>
      receiver.received
        .map((r) => JSON.parse(r.body))
        .find((p) => p.orderId === orderId && p.type === type),
    `${type} of ${orderId}`,
  );

describe('a merchant server with @x402/hono pointed at our facilitator', () => {
  test('402 with our payTo, paid with @x402/fetch, served; the order paid, forwarded 98/2 and webhooked; a replayed settle is not charged again', async () => {
    const m = await merchant();
    const shop = merchantServer(m, '0.35');
    const account = localAccount(5);
    const payer = getAddress(account.address);
    const treasury = t.stack.env.TREASURY_ADDRESS as Address;
    const payerBefore = (await balancesOf(t.stack.env, payer)).usdc;
    const treasuryBefore = (await balancesOf(t.stack.env, treasury)).usdc;
    const { pay, sent } = agent(account, (r) => Promise.resolve(shop.app.fetch(r)));

    const response = await pay('http://merchant.example/weather');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ weather: 'sunny', degrees: 21 });
    const settled = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
    expect(settled).toMatchObject({ success: true, network: 'eip155:31337', payer });

    // The payment went to the one deposit address our API gave for the unpaid request.
    expect(shop.asked).toHaveLength(1);
    const payTo = getAddress(shop.asked[0] as string);
    const signed = decode(sent.at(-1)?.get('PAYMENT-SIGNATURE'));
    expect(getAddress(signed.accepted.payTo)).toBe(payTo);
    const receipt = await chainClient().getTransactionReceipt({
      hash: settled.transaction as Hash,
    });
    const [transfer] = parseEventLogs({ abi: usdcAbi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfer?.args).toEqual({ from: payer, to: payTo, value: usdc('0.35') });
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(payerBefore - usdc('0.35'));

    // The merchant's store shows the order: paid, forwarded 98/2 on chain, webhooked.
    const [order] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.paymentAddress, payTo));
    if (!order) throw new Error('no order for the payTo');
    expect(order.storeId).toBe(m.store.id);
    await waitForForwarded(t.database.db, order.id);
    const { merchant: share, fee } = splitFee(usdc('0.35'));
    expect((await balancesOf(t.stack.env, m.payout)).usdc).toBe(share);
    expect((await balancesOf(t.stack.env, treasury)).usdc - treasuryBefore).toBe(fee);
    expect(share + fee).toBe(usdc('0.35'));
    expect((await balancesOf(t.stack.env, payTo)).usdc).toBe(0n);
    const paid = await webhookOf(order.id, 'order.paid');
    expect(paid.x402).toEqual({ resource: 'https://merchant.example/weather', payer });
    expect(paid.items).toEqual([
      expect.objectContaining({ title: 'Weather report', quantity: 1, priceUsdc: '0.35' }),
    ]);
    await webhookOf(order.id, 'order.forwarded');
    const listed = await m.owner.api.get(`/api/orders?storeId=${m.store.id}`);
    expect(JSON.stringify(listed.body)).toContain(order.id);
    expect((await m.owner.api.get(`/api/orders/${order.id}`)).body.status).toBe('paid');

    // The same settlement sent again answers the same transaction and charges nothing.
    const again = await m.post('/api/x402/facilitator/settle', {
      x402Version: 2,
      paymentPayload: signed,
      paymentRequirements: signed.accepted,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: true, transaction: settled.transaction, payer });
    // Verifying it again says the deposit address is paid.
    const verified = await m.post('/api/x402/facilitator/verify', {
      x402Version: 2,
      paymentPayload: signed,
      paymentRequirements: signed.accepted,
    });
    expect(verified.body).toMatchObject({ isValid: false, invalidReason: 'invalid_payload' });
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(payerBefore - usdc('0.35'));
    expect(
      await t.database.db.select().from(x402Payments).where(eq(x402Payments.orderId, order.id)),
    ).toHaveLength(1);

    const ledger = await chainLedger(t.stack.env, t.database.db);
    expect(ledger.breaches).toEqual([]);
    expect(ledger.authorizationsUsedTwice).toEqual([]);
    expect(await ledgerBreaches(t.database.db)).toEqual([]);
  }, 90_000);
});

describe('who may use the facilitator', () => {
  test("another merchant's key cannot ask for, verify or settle to a store's payTo; nothing is charged", async () => {
    const m = await merchant();
    const stranger = await merchant();
    const account = localAccount(6);
    const before = (await balancesOf(t.stack.env, account.address)).usdc;

    // A pay-to for a store of someone else: not found (and no order made).
    const foreign = await stranger.post('/api/x402/pay-to', {
      storeId: m.store.id,
      amountUsdc: '1.00',
    });
    expect(foreign.status).toBe(404);

    const offered = await m.post('/api/x402/pay-to', { storeId: m.store.id, amountUsdc: '0.20' });
    expect(offered.status).toBe(201);
    expect(offered.body).toMatchObject({
      scheme: 'exact',
      network: 'eip155:31337',
      amount: '200000',
      asset: getAddress(t.stack.env.USDC_ADDRESS as string),
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    });
    const { orderId, ...accepted } = offered.body;
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ storeId: m.store.id, status: 'pending', totalUsdc: '0.20' });
    // Each call has its own deposit address.
    const second = await m.post('/api/x402/pay-to', { storeId: m.store.id, amountUsdc: '0.20' });
    expect(second.body.payTo).not.toBe(accepted.payTo);

    const { scheme } = agent(account, (r) => Promise.resolve(t.app.handle(r)));
    const partial = await scheme.createPaymentPayload(2, accepted);
    const body = {
      x402Version: 2,
      paymentPayload: { x402Version: 2, accepted, payload: partial.payload },
      paymentRequirements: accepted,
    };
    // The owner's key would verify it...
    expect((await m.post('/api/x402/facilitator/verify', body)).body).toMatchObject({
      isValid: true,
      payer: getAddress(account.address),
    });
    // ...another merchant's key neither verifies nor settles it.
    const verify = await stranger.post('/api/x402/facilitator/verify', body);
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({ isValid: false, invalidReason: 'invalid_payload' });
    const settle = await stranger.post('/api/x402/facilitator/settle', body);
    expect(settle.status).toBe(200);
    expect(settle.body).toMatchObject({ success: false, errorReason: 'invalid_payload' });
    // Requirements that differ from what was signed are refused.
    const mismatch = await m.post('/api/x402/facilitator/verify', {
      ...body,
      paymentRequirements: { ...accepted, amount: '100' },
    });
    expect(mismatch.body).toMatchObject({ isValid: false, invalidReason: 'invalid_payload' });
    expect(
      await t.database.db.select().from(x402Payments).where(eq(x402Payments.orderId, orderId)),
    ).toEqual([]);
    expect((await balancesOf(t.stack.env, account.address)).usdc).toBe(before);

    // Anonymous, a cookie (no key) and a bad key: 401 on every route, before the body is read.
    const anonymous = apiClient(t.app);
    for (const [method, path] of [
      ['POST', '/api/x402/pay-to'],
      ['POST', '/api/x402/facilitator/verify'],
      ['POST', '/api/x402/facilitator/settle'],
      ['GET', '/api/x402/facilitator/supported'],
    ] as const) {
      const payload = method === 'POST' ? { body: { nonsense: true } } : {};
      expect((await anonymous.call(method, path, payload)).status).toBe(401);
      expect((await m.owner.api.call(method, path, payload)).status).toBe(401);
      const headers = { authorization: 'Bearer sk_nope' };
      expect((await anonymous.call(method, path, { ...payload, headers })).status).toBe(401);
    }
  }, 60_000);

  test('/supported names the exact scheme on this chain; bodies are capped and checked', async () => {
    const m = await merchant();
    const supported = await m.get('/api/x402/facilitator/supported');
    expect(supported.status).toBe(200);
    expect(supported.body.kinds).toEqual([
      { x402Version: 2, scheme: 'exact', network: 'eip155:31337' },
    ]);
    const huge = await m.post('/api/x402/pay-to', {
      storeId: m.store.id,
      amountUsdc: '1.00',
      description: 'x'.repeat(121),
    });
    expect(huge.status).toBe(422);
    const zero = await m.post('/api/x402/pay-to', { storeId: m.store.id, amountUsdc: '0' });
    expect(zero.status).toBe(422);
    // JSON only: a form-encoded body with a valid key is refused before it is read.
    const form = await t.app.handle(
      new Request('http://localhost/api/x402/pay-to', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${m.key}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `storeId=${m.store.id}&amountUsdc=1.00`,
      }),
    );
    expect(form.status).toBe(415);
    const bad = await m.post('/api/x402/facilitator/verify', {
      x402Version: 2,
      paymentPayload: { x402Version: 2, payload: { signature: `0x${'a'.repeat(5000)}` } },
      paymentRequirements: {},
    });
    expect(bad.status).toBe(422);
  });
});
