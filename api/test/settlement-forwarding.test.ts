// Forwarding and webhooks on the real chain: Postgres, anvil (200 ms blocks) with Circle's USDC,
// the indexer, and the worker's loops in-process. Shoppers pay from anvil test accounts; the
// merchant's and the treasury's balances, the deposit address, the webhooks a local receiver
// gets (verified with `standardwebhooks` and the published Ed25519 key) and the ledger are checked.
import { afterAll, describe, expect, test } from 'bun:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { formatUsdcFull, splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { LOCAL_ACCOUNT_INDEX, localAccount, payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { loadWorkerConfig } from '../src/config.ts';
import { orders } from '../src/db/schema.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import {
  orderOneMug,
  payableUniversalOrder,
  waitForForwarded,
  walletOf,
} from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const receiver = webhookReceiver();
const workerLog: string[] = [];
const t = useChainApi({
  confirmations: 2,
  poolSize: 8,
  worker: ({ stack, database }) => {
    const workerConfig = loadWorkerConfig({
      ...stack.env,
      CONFIRMATIONS: '2',
      FORWARDING_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '100',
    });
    return startSettlement(workerConfig, database.db, { log: (line) => workerLog.push(line) });
  },
});
afterAll(() => {
  receiver.stop();
});

/** A universal order paying out to `payout`, with webhooks to the local receiver. */
const universalOrder = (total: string, payout: Address, client = t.shopper) =>
  payableUniversalOrder(client, { total, payout, webhookUrl: receiver.url });

/** A merchant, a store paying out to a fresh address with a webhook URL, and a 10.80 order. */
async function storeOrder() {
  const owner = await newMerchant(t.app, 'settle');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  const hook = await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
  expect(hook.status).toBe(200);
  const { orderId } = await orderOneMug(owner, t.shopper, store.id);
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  const address = wallet.body.paymentWallet.address as Address;
  const { secret } = (await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body;
  return { owner, store, payout, orderId, address, secret: secret as string };
}

const forwarded = (orderId: string) => waitForForwarded(t.database.db, orderId);

const webhookOf = (orderId: string, type: string) =>
  waitUntil(
    () =>
      receiver.received.find(
        (r) => JSON.parse(r.body).orderId === orderId && JSON.parse(r.body).type === type,
      ),
    `${type} of ${orderId}`,
  );

describe('a store order paid in full', () => {
  test('98% reaches the merchant and 2% the treasury, gaslessly; nothing stays behind', async () => {
    const { payout, orderId, address, owner } = await storeOrder();
    const treasury = t.stack.env.TREASURY_ADDRESS as Address;
    const treasuryBefore = (await balancesOf(t.stack.env, treasury)).usdc;
    const { hash } = await payUsdc(t.stack.env, 1, address, usdc('10.80'));
    const wallet = await forwarded(orderId);

    const { merchant, fee } = splitFee(usdc('10.80'));
    expect(merchant + fee).toBe(usdc('10.80'));
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(merchant);
    expect((await balancesOf(t.stack.env, treasury)).usdc - treasuryBefore).toBe(fee);
    expect(await balancesOf(t.stack.env, address)).toEqual({ usdc: 0n, eth: 0n });
    expect(wallet).toMatchObject({
      forwardedAmountUsdc: '10.800000',
      gasFunded: false,
      gasAmountSent: '0.000000000000000000',
    });
    expect(wallet.forwardedAt).toBeInstanceOf(Date);
    expect(Number(wallet.actualGasUsed)).toBeGreaterThan(0);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.paymentTxHash).toBe(hash);

    const view = await owner.api.get(`/api/orders/${orderId}/forwarding`);
    expect(view.body).toMatchObject({
      status: 'completed',
      completed: true,
      retryCount: 0,
      lastError: null,
    });
    expect(
      view.body.transfers.map((t: { leg: string; status: string }) => `${t.leg}:${t.status}`),
    ).toEqual(['fee:confirmed', 'merchant:confirmed'].sort());
    // The merchant's order list (and its CSV) says what was paid out, to the base unit, and how.
    const listed = (await owner.api.get('/api/orders')).body.find(
      (o: { id: string }) => o.id === orderId,
    );
    expect(listed.forwarded).toEqual({
      merchantUsdc: formatUsdcFull(merchant),
      feeUsdc: formatUsdcFull(fee),
      txHashes: expect.arrayContaining(
        view.body.transfers.map((leg: { txHash: string }) => leg.txHash),
      ),
    });
    expect(listed.forwarded.txHashes).toHaveLength(2);
  }, 40_000);

  test('the receiver gets order.paid and order.forwarded, signed with the store secret (v1)', async () => {
    const { orderId, address, secret, owner, store } = await storeOrder();
    await payUsdc(t.stack.env, 2, address, usdc('10.80'));
    const paid = await webhookOf(orderId, 'order.paid');
    const payload = new Webhook(secret).verify(paid.body, paid.headers) as Record<string, unknown>;
    expect(paid.headers['user-agent']).toBe('StorefrontWebhooks/1.0');
    expect(paid.headers['webhook-id']).toMatch(/^msg_/);
    expect(payload).toMatchObject({
      type: 'order.paid',
      orderId,
      status: 'paid',
      paymentStatus: 'received',
      paymentWallet: { address, receivedAmount: '10.800000', expectedAmount: '10.80' },
      customer: { email: customer.customerEmail },
      totalUsdc: '10.80',
    });
    expect(() =>
      new Webhook(`whsec_${btoa('another secret, 32 bytes long!!')}`).verify(
        paid.body,
        paid.headers,
      ),
    ).toThrow();
    const done = await webhookOf(orderId, 'order.forwarded');
    const forwarding = (
      new Webhook(secret).verify(done.body, done.headers) as { forwarding: Record<string, string> }
    ).forwarding;
    expect(forwarding).toMatchObject({
      amount: '10.800000',
      merchantAmount: '10.584000',
      feeAmount: '0.216000',
    });

    const log = await owner.api.get(`/api/stores/${store.id}/webhook-deliveries`);
    const delivered = log.body.find((d: { eventType: string }) => d.eventType === 'order.paid');
    expect(delivered).toMatchObject({
      status: 'delivered',
      attemptCount: 1,
      messageId: paid.headers['webhook-id'],
    });
    expect(delivered.attempts[0]).toMatchObject({ statusCode: 200, error: null });
  }, 40_000);
});

describe('a universal order', () => {
  test('is forwarded to the link address; its webhook verifies with the published key (v1a)', async () => {
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('5.00', payout);
    await payUsdc(t.stack.env, 3, address, usdc('5.00'));
    await forwarded(orderId);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(splitFee(usdc('5.00')).merchant);
    const paid = await webhookOf(orderId, 'order.paid');
    const { body: key } = await t.shopper.get('/.well-known/webhook-signing-key');
    expect(key.publicKey).toMatch(/^whpk_/);
    const [version, signature] = paid.headers['webhook-signature']?.split(',') ?? [];
    expect(version).toBe('v1a');
    const signed = `${paid.headers['webhook-id']}.${paid.headers['webhook-timestamp']}.${paid.body}`;
    const publicKey = Buffer.from(key.publicKey.slice(5), 'base64');
    expect(
      ed25519.verify(
        Buffer.from(signature ?? '', 'base64'),
        new TextEncoder().encode(signed),
        publicKey,
      ),
    ).toBe(true);
    expect(
      ed25519.verify(
        Buffer.from(signature ?? '', 'base64'),
        new TextEncoder().encode(`${signed} `),
        publicKey,
      ),
    ).toBe(false);
    // A hand-made link proves only that money reached its payout address: the payload says so
    // and names the address and the amounts, for the integrator to check against its own record.
    expect(JSON.parse(paid.body)).toMatchObject({
      status: 'paid',
      externalOrderId: expect.stringMatching(/^ext-/),
      signed: false,
      totalUsdc: '5.00',
      paymentWallet: { expectedAmount: '5.00', receivedAmount: '5.000000' },
    });
    expect(JSON.parse(paid.body).paymentWallet.storePaymentAddress.toLowerCase()).toBe(
      payout.toLowerCase(),
    );
  }, 40_000);
});

describe('amounts other than the exact one: nothing is left on a deposit address unaccounted', () => {
  test('overpaid: the total is split and forwarded, the excess is held for the payer', async () => {
    const payout = freshAddress();
    const { orderId, buyerToken, address } = await universalOrder('10.00', payout);
    await payUsdc(t.stack.env, 4, address, usdc('12.50'));
    await forwarded(orderId);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(splitFee(usdc('10.00')).merchant);
    // The excess waits on the address for the payer's claim, as a refund awaiting their address.
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(usdc('2.50'));
    const claims = (
      await t.shopper.get(`/api/orders/${orderId}/refund-claims`, {
        headers: { 'x-buyer-token': buyerToken },
      })
    ).body;
    expect(claims).toEqual([
      { amount: '2.500000', reason: 'excess', claimPath: expect.stringMatching(/^\/refund\//) },
    ]);
    await webhookOf(orderId, 'order.overpaid');
    const requested = await webhookOf(orderId, 'order.refund_requested');
    expect(JSON.parse(requested.body).refund).toMatchObject({
      source: 'deposit',
      reason: 'excess',
      amount: '2.500000',
      status: 'awaiting_address',
    });
  }, 40_000);

  test('underpaid: forwarded at expiry; a late top-up is forwarded in a second round', async () => {
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('10.00', payout, t.appWithWindow(3));
    await payUsdc(t.stack.env, 5, address, usdc('3.00'));
    await webhookOf(orderId, 'order.underpaid');
    const first = await waitUntil(async () => {
      const wallet = await walletOf(t.database.db, orderId);
      return wallet.forwardedAmountUsdc === '3.000000' && wallet;
    }, 'the first round');
    expect(first).toMatchObject({ forwardingStatus: 'completed' });
    expect(await walletForwarded(t.database.db, first)).toBe(false);
    expect(first.expiredAt?.getTime()).toBeLessThanOrEqual(Date.now());
    // The shopper still sees an underpaid order, not a forwarded (paid) one.
    const status = (await t.shopper.get(`/api/check-payment-status/${orderId}`)).body;
    expect(status).toMatchObject({ status: 'underpaid', paymentDetected: false });
    await Bun.sleep(1000); // the top-up's block is after the window: paid late
    await payUsdc(t.stack.env, 5, address, usdc('7.00'));
    await webhookOf(orderId, 'order.paid_late');
    const second = await waitUntil(async () => {
      const wallet = await walletOf(t.database.db, orderId);
      return (
        wallet.forwardedAmountUsdc === '10.000000' &&
        (await walletForwarded(t.database.db, wallet)) &&
        wallet
      );
    }, 'the second round');
    expect(second).toMatchObject({ status: 'received', exception: 'paid_late' });
    const expected = splitFee(usdc('3.00')).merchant + splitFee(usdc('7.00')).merchant;
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(expected);
    expect(await balancesOf(t.stack.env, address)).toEqual({ usdc: 0n, eth: 0n });
    const forwardedHooks = () =>
      receiver.received.filter((r) => {
        const body = JSON.parse(r.body);
        return body.orderId === orderId && body.type === 'order.forwarded';
      });
    // Note: the round is recorded before its webhook leaves the outbox: wait for the delivery.
    const rounds = await waitUntil(
      () => forwardedHooks().length >= 2 && forwardedHooks(),
      'both order.forwarded webhooks',
    );
    expect(rounds.map((r) => JSON.parse(r.body).forwarding.round).sort()).toEqual([1, 2]);
  }, 60_000);
});

describe('a forwarding that keeps failing', () => {
  const token = parseAbi(['function blacklist(address)', 'function unBlacklist(address)']);
  const asBlacklister = async (functionName: 'blacklist' | 'unBlacklist', who: Address) => {
    const wallet = createWalletClient({
      account: localAccount(LOCAL_ACCOUNT_INDEX.tokenOwner),
      chain: foundry,
      transport: http(t.stack.env.RPC_URL),
    });
    const hash = await wallet.writeContract({
      address: t.stack.env.USDC_ADDRESS as Address,
      abi: token,
      functionName,
      args: [who],
    });
    await createPublicClient({
      chain: foundry,
      transport: http(t.stack.env.RPC_URL),
    }).waitForTransactionReceipt({ hash });
  };

  test('stops, visible to the merchant with its error; a retry after the cause is fixed pays', async () => {
    const { owner, payout, orderId, address } = await storeOrder();
    await asBlacklister('blacklist', payout);
    await payUsdc(t.stack.env, 6, address, usdc('10.80'));
    const stopped = await waitUntil(
      async () => {
        const view = await owner.api.get(`/api/orders/${orderId}/forwarding`);
        return view.body.status === 'failed' && view.body;
      },
      'forwarding to stop',
      30_000,
    );
    expect(stopped.retryCount).toBeGreaterThanOrEqual(6);
    expect(stopped.lastError).toMatch(/blacklisted/i);
    // Note: the fee went out; the merchant share waits on the address, its round still open.
    const { merchant, fee } = splitFee(usdc('10.80'));
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(merchant);
    const stranger = await newMerchant(t.app, 'stranger');
    expect((await stranger.api.post(`/api/orders/${orderId}/forwarding/retry`)).status).toBe(404);

    await asBlacklister('unBlacklist', payout);
    expect((await owner.api.post(`/api/orders/${orderId}/forwarding/retry`)).status).toBe(200);
    const treasuryBefore = (await balancesOf(t.stack.env, t.stack.env.TREASURY_ADDRESS as Address))
      .usdc;
    await forwarded(orderId);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(merchant);
    // The fee's authorization was used once and is never sent again.
    expect((await balancesOf(t.stack.env, t.stack.env.TREASURY_ADDRESS as Address)).usdc).toBe(
      treasuryBefore,
    );
    expect(fee).toBeGreaterThan(0n);
  }, 60_000);
});

test('the ledger holds: every forwarded address received exactly merchant share + fee', async () => {
  expect(await ledgerBreaches(t.database.db)).toEqual([]);
  expect(workerLog.filter((line) => /pass failed/.test(line))).toEqual([]);
});
