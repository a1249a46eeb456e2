// Agents paying a digital product over HTTP 402 (x402 v2) on the real chain: Postgres, anvil
// (200 ms blocks) with Circle's USDC, the indexer and the worker's loops in-process, and the
// reference client (`@x402/fetch` with an `@x402/evm` signer for an anvil account). The payable
// URL answers 402 with a fresh deposit address; the signed authorization is settled by our
// relayer, the merchant's API answers through us, and the order is paid, forwarded 98/2 (read
// from the chain to the base unit) and webhooked. The same authorization sent again is not
// charged again; an upstream failure refunds the payer on chain; the merchant's refund from the
// payout wallet is ready for the signer at once (an agent follows no claim link) and matched on
// chain, never beyond what is left; strangers cannot read or change
// the product's settings; a wrong amount or payee charges nothing; a payment that fails to settle
// on chain serves nothing. The paying scenarios live in
// support/x402-scenarios.ts: the Base rehearsal runs the same ones on chain 8453.

import { afterAll, describe, expect, test } from 'bun:test';
import { chainLedger } from '@store/stack/chain-ledger';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { createWalletClient, getAddress, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { orders, refunds, x402Payments } from '../src/db/schema.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { waitForForwarded } from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';
import { useX402Stack } from './support/x402.ts';
import {
  agentOf,
  apiProduct as apiProductOf,
  appFetchOf,
  decodeX402 as decode,
  merchantUpstream,
  payThenReplay,
  requirementsOf as requirementsAt,
  UPSTREAM_SECRET as SECRET,
  transfersOf,
  upstreamFailureRefunds,
  type X402Deployment,
} from './support/x402-scenarios.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const receiver = webhookReceiver();
const upstream = merchantUpstream();
const t = useX402Stack();
afterAll(() => {
  receiver.stop();
  upstream.stop();
});

/** This file's deployment: the local stack (chain 31337, the local USDC, depth 2). */
const here = (): X402Deployment => ({
  app: t.app,
  db: t.database.db,
  config: t.config,
  receiver,
  upstream,
});
const appFetch = (input: string | Request, init?: RequestInit) => appFetchOf(here())(input, init);
const agent = (account: ReturnType<typeof localAccount>) => agentOf(here(), account);
const apiProduct = (price?: string) => apiProductOf(here(), price);
const requirementsOf = (url: string) => requirementsAt(here(), url);

describe('an API resource paid over HTTP 402', () => {
  test('402, pay with @x402/fetch, the resource; paid, forwarded 98/2 and webhooked; a replay is not charged again', async () => {
    await payThenReplay(here(), localAccount(5), {
      network: 'eip155:31337',
      asset: getAddress(t.stack.env.USDC_ADDRESS as string),
      tokenName: 'USD Coin',
    });
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
    await upstreamFailureRefunds(here(), localAccount(7));
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

describe('a merchant refund of an agent-paid order', () => {
  test('goes to the paying agent (the signer) from the payout wallet, matched on chain; no more than is left; strangers refused', async () => {
    // The payout wallet is an anvil account the test sends from, as the merchant's wallet would.
    const owner = await newMerchant(t.app, 'x402-refunds');
    const payout = getAddress(localAccount(4).address);
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const product = (
      await owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Answer API',
        priceUsdc: '0.25',
        digital: {
          kind: 'api',
          upstreamUrl: upstream.url,
          secretHeaderName: 'X-Api-Secret',
          secretHeaderValue: SECRET,
        },
      })
    ).body;
    const account = localAccount(3);
    const payer = getAddress(account.address);
    const { pay, sent: signatures } = agent(account);
    const paid = await pay(product.x402Url);
    expect(paid.status).toBe(200);
    const payTo = getAddress(
      decode(signatures.at(-1)?.get('PAYMENT-SIGNATURE') ?? '').accepted.payTo,
    );
    const [order] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.paymentAddress, payTo));
    if (!order) throw new Error('no order for the payment');
    await waitForForwarded(t.database.db, order.id);
    const view = (await owner.api.get(`/api/orders/${order.id}/refunds`)).body;
    expect(view).toMatchObject({ refundableFromPayout: '0.250000', payoutAddress: payout });

    // Another merchant and an anonymous client can neither refund it nor note a refund sent.
    const stranger = await newMerchant(t.app, 'x402-refunds-stranger');
    const anonymous = apiClient(t.app);
    expect(
      (await stranger.api.post(`/api/orders/${order.id}/refunds`, { amount: '0.10' })).status,
    ).toBe(404);
    expect(
      (await anonymous.post(`/api/orders/${order.id}/refunds`, { amount: '0.10' })).status,
    ).toBe(401);

    // The merchant refunds part of it: the payer is the authorization's signer, known for certain,
    // so the refund is ready for that address at once (an agent has no claim link to follow).
    const partial = await owner.api.post(`/api/orders/${order.id}/refunds`, { amount: '0.10' });
    expect(partial.status).toBe(200);
    expect(partial.body.refundableFromPayout).toBe('0.150000');
    const [refund] = partial.body.refunds;
    expect(refund).toMatchObject({
      source: 'merchant',
      reason: 'merchant',
      amount: '0.100000',
      status: 'ready',
      toAddress: payer,
    });
    const payerBefore = (await balancesOf(t.stack.env, payer)).usdc;
    const payoutBefore = (await balancesOf(t.stack.env, payout)).usdc;
    const { hash } = await payUsdc(t.stack.env, 4, payer, usdc('0.10'));
    for (const client of [stranger.api, anonymous])
      expect(
        (await client.post(`/api/orders/${order.id}/refunds/${refund.id}/sent`, { txHash: hash }))
          .status,
      ).toBeOneOf([401, 404]);
    const noted = await owner.api.post(`/api/orders/${order.id}/refunds/${refund.id}/sent`, {
      txHash: hash,
    });
    expect(noted.status).toBe(200);
    const done = await waitUntil(async () => {
      const [row] = await t.database.db.select().from(refunds).where(eq(refunds.id, refund.id));
      return row?.status === 'refunded' && row;
    }, 'the merchant refund matched on chain');
    expect(done).toMatchObject({ txHash: hash, toAddress: payer, amount: '100000' });
    const [back] = await transfersOf(here(), hash);
    expect(back?.args).toEqual({ from: payout, to: payer, value: usdc('0.10') });
    expect((await balancesOf(t.stack.env, payer)).usdc - payerBefore).toBe(usdc('0.10'));
    expect(payoutBefore - (await balancesOf(t.stack.env, payout)).usdc).toBe(usdc('0.10'));

    // Beyond what is left: refused with what is left, and nothing more is opened.
    const tooMuch = await owner.api.post(`/api/orders/${order.id}/refunds`, {
      amount: '0.150001',
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.message).toBe(
      'At most 0.150000 USDC of this order is left to refund',
    );
    const after = (await owner.api.get(`/api/orders/${order.id}/refunds`)).body;
    expect(after.refunds).toHaveLength(1);
    expect(after.refundableFromPayout).toBe('0.150000');
    const ledger = await chainLedger(t.stack.env, t.database.db);
    expect(ledger.breaches).toEqual([]);
    expect(await ledgerBreaches(t.database.db)).toEqual([]);
  }, 60_000);
});

describe('a payment that fails to settle', () => {
  // Note: last in the file: it pauses the chain's interval mining and leaves 1 s blocks after.
  test('serves nothing and charges nothing: the payer spent the money before the relayer’s transaction was mined', async () => {
    const { product } = await apiProduct('0.40');
    const account = localAccount(9);
    const payer = getAddress(account.address);
    const { client } = agent(account);
    const payload = await client.createPaymentPayload(await requirementsOf(product.x402Url));
    const header = Buffer.from(JSON.stringify(payload)).toString('base64');
    const rpc = (method: string, params: unknown[] = []) =>
      fetch(t.stack.env.RPC_URL as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then((r) => r.json());
    const callsBefore = upstream.calls.length;
    await rpc('evm_setIntervalMining', [0]);
    try {
      // Verified against the mined state (the money is there), recorded, sent by the relayer.
      const answer = appFetch(product.x402Url, { headers: { 'PAYMENT-SIGNATURE': header } });
      const row = await waitUntil(async () => {
        const [found] = await t.database.db
          .select()
          .from(x402Payments)
          .where(eq(x402Payments.payer, payer.toLowerCase()));
        return found?.txHash ? found : undefined;
      }, 'the relayer’s transaction');
      // The payer moves all of it away first (a higher tip: mined ahead in the same block).
      const balance = (await balancesOf(t.stack.env, payer)).usdc;
      const wallet = createWalletClient({
        account,
        chain: foundry,
        transport: http(t.stack.env.RPC_URL),
      });
      await wallet.writeContract({
        address: t.config.chain.usdc,
        abi: usdcAbi,
        functionName: 'transfer',
        args: [freshAddress(), balance],
        gas: 120_000n,
        maxPriorityFeePerGas: parseUnits('100', 9),
        maxFeePerGas: parseUnits('200', 9),
      });
      await rpc('evm_mine');
      const response = await answer;
      expect(response.status).toBe(402);
      expect(decode(response.headers.get('PAYMENT-REQUIRED')).error).toContain('settle_failed');
      expect(upstream.calls.length).toBe(callsBefore);
      const [failed] = await t.database.db
        .select()
        .from(x402Payments)
        .where(eq(x402Payments.id, row.id));
      expect(failed?.status).toBe('failed');
      // The signed transaction's bytes were kept while it was on its way, not after.
      expect(row.rawTransaction).toMatch(/^0x02/);
      expect(failed?.rawTransaction).toBeNull();
      expect((await balancesOf(t.stack.env, row.payTo as `0x${string}`)).usdc).toBe(0n);
      // The same signature again gets the same refusal, and still nothing is served.
      const again = await appFetch(product.x402Url, { headers: { 'PAYMENT-SIGNATURE': header } });
      expect(again.status).toBe(402);
      expect(upstream.calls.length).toBe(callsBefore);
    } finally {
      await rpc('evm_setIntervalMining', [1]);
    }
  }, 60_000);
});
