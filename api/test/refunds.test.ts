// Refunds from a deposit address on the real chain: Postgres, anvil (200 ms blocks) with Circle's
// USDC, the indexer and the worker's loops in-process. An overpaid order's excess is held, claimed
// through its link and sent back with EIP-3009; an underpaid order is decided by its merchant the
// day it happens: refunded, or accepted as paid. Balances are read from the chain, and the
// chain ledger (received = merchant + treasury + refunded + held) is checked at the end.

import { afterAll, describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { REFUND_MESSAGES, splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { and, eq, sql } from 'drizzle-orm';
import { type Address, getAddress, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { emailOutbox, orders, products, refunds, users } from '../src/db/schema.ts';
import { merchantShortfall, shopperShortfall } from '../src/mail/shortfall.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { type ApiClient, apiClient, newMerchant, storeForm } from './support/client.ts';
import { buyer, orderOneMug, waitForForwarded, walletOf } from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const receiver = webhookReceiver();
const t = useChainApi({
  confirmations: 2,
  poolSize: 8,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '2',
        FORWARDING_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '100',
      }),
      database.db,
      { log: () => {} },
    ),
});
afterAll(() => receiver.stop());

/** A merchant's store paying out to a fresh address, and a 10.80 order with its deposit address. */
async function storeOrder(shopper: ApiClient = t.shopper) {
  const owner = await newMerchant(t.app, 'refunds');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
  const { orderId, buyerToken } = await orderOneMug(owner, shopper, store.id);
  const wallet = await shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  return {
    owner,
    payout,
    orderId,
    buyerToken,
    address: wallet.body.paymentWallet.address as Address,
  };
}

/** The claim links of an order's pages, as the shopper's browser (with its buyer token) reads them. */
async function pageClaims(orderId: string, buyerToken: string) {
  const answer = await t.shopper.get(`/api/orders/${orderId}/refund-claims`, buyer(buyerToken));
  expect(answer.status).toBe(200);
  return answer.body as { amount: string; reason: string; claimPath: string }[];
}

const tokenOf = (claimPath: string) => claimPath.replace('/refund/', '');

const refundRows = (orderId: string) =>
  t.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));

const webhookOf = (orderId: string, type: string) =>
  waitUntil(
    () =>
      receiver.received.find(
        (r) => JSON.parse(r.body).orderId === orderId && JSON.parse(r.body).type === type,
      ),
    `${type} of ${orderId}`,
  );

describe('an overpaid order', () => {
  test('forwards the total; the excess is held, claimed by the payer and sent back on chain', async () => {
    const { owner, payout, orderId, buyerToken, address } = await storeOrder();
    const payer = getAddress(localAccount(1).address);
    const treasury = t.stack.env.TREASURY_ADDRESS as Address;
    const treasuryBefore = (await balancesOf(t.stack.env, treasury)).usdc;
    await payUsdc(t.stack.env, 1, address, usdc('13.30'));
    await waitForForwarded(t.database.db, orderId);
    const { merchant, fee } = splitFee(usdc('10.80'));
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(merchant);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(usdc('2.50'));

    const view = (await owner.api.get(`/api/orders/${orderId}/refunds`)).body;
    expect(view).toMatchObject({
      paymentStatus: 'received',
      paymentException: 'overpaid',
      expectedAmount: '10.800000',
      receivedAmount: '13.300000',
      extraAmount: '2.500000',
      missingAmount: '0.000000',
      onDepositAmount: '0.000000',
      canAcceptUnderpaid: false,
      canRefundDeposit: false,
    });
    expect(view.refunds).toHaveLength(1);
    expect(view.refunds[0]).toMatchObject({
      source: 'deposit',
      reason: 'excess',
      amount: '2.500000',
      status: 'awaiting_address',
      suggestedAddress: payer,
    });
    // Nobody else sees or decides: another merchant gets 404, a client without a session 401.
    const stranger = await newMerchant(t.app, 'stranger');
    expect((await stranger.api.get(`/api/orders/${orderId}/refunds`)).status).toBe(404);
    expect((await apiClient(t.app).get(`/api/orders/${orderId}/refunds`)).status).toBe(401);

    // The payer's link: the shopper's order pages list it (with the buyer token that browser
    // holds); the claim page prefills the paying address. The merchant's view carries no link.
    expect(view.refunds[0].claimPath).toBeUndefined();
    const [claim] = await pageClaims(orderId, buyerToken);
    if (!claim) throw new Error('no claim link on the order pages');
    const token = tokenOf(claim.claimPath);
    const page = await t.shopper.get(`/api/refund-claims/${token}`);
    expect(page.body).toMatchObject({
      orderId,
      amount: '2.500000',
      reason: 'excess',
      status: 'awaiting_address',
      suggestedAddress: payer,
      toAddress: null,
    });
    expect((await t.shopper.get(`/api/refund-claims/${'x'.repeat(43)}`)).status).toBe(404);
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'refund_claim')));
    expect(mail?.payload).toEqual({
      refundId: view.refunds[0].id,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    // The order pages' link (which the merchant can open too: it knows the order id) only sends
    // the money back where it came from; the page says so.
    expect(page.body.addressLocked).toBe(true);
    const elsewhere = await t.shopper.post(`/api/refund-claims/${token}`, {
      address: freshAddress(),
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.message).toBe(REFUND_MESSAGES.addressLocked);
    // The emailed link is the payer's own (a random token, only its hash stored) and may choose.
    const mailToken = String(mail?.payload?.token);
    const emailed = (await t.shopper.get(`/api/refund-claims/${mailToken}`)).body;
    expect(emailed).toMatchObject({ orderId, addressLocked: false });

    // Bad addresses are refused with a clear message and change nothing.
    const wrongCase = payer
      .replace(/[a-f]/, (c) => c.toUpperCase())
      .replace(/[A-F]/, (c) => c.toLowerCase());
    for (const [address_, message] of [
      ['0x1234', /0x followed by 40/],
      [wrongCase, /checksum/],
      ['0x0000000000000000000000000000000000000000', /zero address/],
      [address, /payment address of ours/],
    ] as const) {
      const refused = await t.shopper.post(`/api/refund-claims/${mailToken}`, {
        address: address_,
      });
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toMatch(message);
    }
    expect((await refundRows(orderId))[0]?.status).toBe('awaiting_address');

    const payerBefore = (await balancesOf(t.stack.env, payer)).usdc;
    const confirmed = await t.shopper.post(`/api/refund-claims/${token}`, { address: payer });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'ready', toAddress: payer });
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: payer })).status).toBe(
      409,
    );
    const refunded = await waitUntil(async () => {
      const [row] = await refundRows(orderId);
      return row?.status === 'refunded' && row;
    }, 'the excess refund');
    expect(refunded.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(refunded.round).toBe(2);
    expect((await balancesOf(t.stack.env, payer)).usdc - payerBefore).toBe(usdc('2.50'));
    expect(await balancesOf(t.stack.env, address)).toEqual({ usdc: 0n, eth: 0n });
    expect((await balancesOf(t.stack.env, treasury)).usdc - treasuryBefore).toBe(fee);
    // merchant + treasury + refunded = received
    expect(merchant + fee + usdc('2.50')).toBe(usdc('13.30'));
    const wallet = await walletOf(t.database.db, orderId);
    expect(wallet.forwardedAmountUsdc).toBe('13.300000');
    const hook = await webhookOf(orderId, 'order.refunded');
    expect(JSON.parse(hook.body).refund).toMatchObject({
      amount: '2.500000',
      status: 'refunded',
      toAddress: payer,
      txHash: refunded.txHash,
    });
  }, 60_000);
});

/** Waits until everything seen on the order's address is at the confirmation depth. */
const confirmedAt = (orderId: string, amount: string) =>
  waitUntil(async () => {
    const wallet = await walletOf(t.database.db, orderId);
    return wallet.receivedAmountUsdc === amount && wallet.detectedAmountUsdc === amount && wallet;
  }, `${amount} confirmed on ${orderId}`);

describe('an underpaid order, decided the day it happens', () => {
  test('its merchant refunds it at once: the window closes, a later top-up never pays it', async () => {
    const { owner, payout, orderId, buyerToken, address } = await storeOrder();
    await t.database.db
      .update(users)
      .set({ email: `${owner.user.username}@example.com`, emailVerifiedAt: new Date() })
      .where(eq(users.id, owner.user.id));
    await payUsdc(t.stack.env, 2, address, usdc('4.00'));
    await webhookOf(orderId, 'order.underpaid');
    await confirmedAt(orderId, '4.000000');
    // Inside its window (days long): nothing was forwarded; the merchant decides now.
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(usdc('4.00'));
    const before = await walletOf(t.database.db, orderId);
    expect(before).toMatchObject({ forwardedAmountUsdc: '0.000000', exception: 'underpaid' });
    expect(before.expiredAt?.getTime()).toBeGreaterThan(Date.now() + 60_000);
    // Both sides are told at once: the shopper with a link to pay the rest, the owner with the
    // order page.
    const shortfall = await t.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, orderId));
    expect(shortfall.map((m) => m.kind).sort()).toEqual(['merchant_underpaid', 'underpaid']);
    const told = (kind: string) => {
      const row = shortfall.find((m) => m.kind === kind);
      if (!row) throw new Error(`no ${kind} mail`);
      return { ...row, kind, userId: row.userId, orderId, payload: row.payload };
    };
    const shopperMail = await shopperShortfall(
      t.database.db,
      told('underpaid'),
      31337,
      'https://shop.example',
    );
    expect(shopperMail?.subject).toContain('is 6.800000 USDC short');
    expect(shopperMail?.text).toContain('Arrived: 4.000000 USDC');
    expect(shopperMail?.text).toContain(`Pay the rest: https://shop.example/payment/${orderId}`);
    const ownerMail = await merchantShortfall(
      t.database.db,
      told('merchant_underpaid'),
      31337,
      'https://shop.example',
    );
    expect(ownerMail?.text).toContain('received 4.000000 of 10.80 USDC');
    expect(ownerMail?.text).toContain(`https://shop.example/admin/orders/${orderId}`);
    const view = (await owner.api.get(`/api/orders/${orderId}/refunds`)).body;
    expect(view).toMatchObject({
      paymentStatus: 'waiting',
      paymentException: 'underpaid',
      receivedAmount: '4.000000',
      missingAmount: '6.800000',
      onDepositAmount: '4.000000',
      canAcceptUnderpaid: true,
      canRefundDeposit: true,
    });

    const stranger = await newMerchant(t.app, 'stranger');
    expect((await stranger.api.post(`/api/orders/${orderId}/refunds`, {})).status).toBe(404);
    expect((await stranger.api.post(`/api/orders/${orderId}/accept-underpaid`)).status).toBe(404);
    expect((await apiClient(t.app).post(`/api/orders/${orderId}/refunds`, {})).status).toBe(401);
    expect((await apiClient(t.app).post(`/api/orders/${orderId}/accept-underpaid`)).status).toBe(
      401,
    );

    const started = await owner.api.post(`/api/orders/${orderId}/refunds`, {});
    expect(started.status).toBe(200);
    expect(started.body.refunds).toMatchObject([
      { source: 'deposit', reason: 'underpaid', amount: '4.000000', status: 'awaiting_address' },
    ]);
    expect(started.body).toMatchObject({ canAcceptUnderpaid: false, canRefundDeposit: false });
    // The window closed with the decision.
    expect((await walletOf(t.database.db, orderId)).expiredAt?.getTime()).toBeLessThanOrEqual(
      Date.now(),
    );
    // Refunded: the shopper is no longer asked to pay the rest.
    expect(
      await shopperShortfall(t.database.db, told('underpaid'), 31337, 'https://shop.example'),
    ).toBeNull();
    // Decided: a second refund, or accepting now, is refused.
    expect((await owner.api.post(`/api/orders/${orderId}/refunds`, {})).status).toBe(409);
    expect((await owner.api.post(`/api/orders/${orderId}/accept-underpaid`)).status).toBe(409);
    await webhookOf(orderId, 'order.refund_requested');

    const to = freshAddress();
    // Note: another address than the one that paid: only through the emailed link.
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'refund_claim')));
    const pageToken = tokenOf(String((await pageClaims(orderId, buyerToken))[0]?.claimPath));
    expect((await t.shopper.post(`/api/refund-claims/${pageToken}`, { address: to })).status).toBe(
      422,
    );
    const token = String(mail?.payload?.token);
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: to })).status).toBe(200);
    await waitUntil(async () => {
      const [row] = await refundRows(orderId);
      return row?.status === 'refunded' && row;
    }, 'the underpaid refund');
    expect((await balancesOf(t.stack.env, to)).usdc).toBe(usdc('4.00'));
    expect(await balancesOf(t.stack.env, address)).toEqual({ usdc: 0n, eth: 0n });

    // The shopper sends the rest after the decision: the order stays unpaid, the merchant gets
    // nothing, and the top-up is held for the payer (its own claim link).
    await payUsdc(t.stack.env, 2, address, usdc('6.80'));
    await confirmedAt(orderId, '10.800000');
    const topUp = await waitUntil(async () => {
      const rows = await refundRows(orderId);
      return rows.find((r) => r.amount === '6800000');
    }, 'the top-up held for the payer');
    expect(topUp).toMatchObject({ source: 'deposit', reason: 'underpaid' });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('pending');
    expect(await walletOf(t.database.db, orderId)).toMatchObject({
      status: 'waiting',
      exception: 'underpaid',
    });
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(0n);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(usdc('6.80'));
    const after = (await owner.api.get(`/api/orders/${orderId}/refunds`)).body;
    expect(after).toMatchObject({ canAcceptUnderpaid: false, canRefundDeposit: false });
  }, 90_000);

  test('accepted as paid at once: wallet and order agree, what arrived is forwarded, a top-up goes back to the payer', async () => {
    const { owner, payout, orderId, address } = await storeOrder();
    await payUsdc(t.stack.env, 3, address, usdc('6.00'));
    await webhookOf(orderId, 'order.underpaid');
    await confirmedAt(orderId, '6.000000');
    const accepted = await owner.api.post(`/api/orders/${orderId}/accept-underpaid`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ missingAmount: '4.800000', canRefundDeposit: false });
    await waitForForwarded(t.database.db, orderId);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(splitFee(usdc('6.00')).merchant);
    expect(await balancesOf(t.stack.env, address)).toEqual({ usdc: 0n, eth: 0n });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('paid');
    // The wallet agrees with its order: received, with the exception stated.
    const wallet = await walletOf(t.database.db, orderId);
    expect(wallet).toMatchObject({
      status: 'received',
      exception: 'accepted_underpaid',
      acceptedAmountUsdc: '6.000000',
    });
    expect(wallet.expiredAt?.getTime()).toBeLessThanOrEqual(Date.now());
    const paid = await webhookOf(orderId, 'order.paid');
    expect(JSON.parse(paid.body)).toMatchObject({
      status: 'paid',
      paymentStatus: 'received',
      paymentException: 'accepted_underpaid',
      paymentWallet: { receivedAmount: '6.000000', expectedAmount: '10.80' },
    });
    const status = await t.shopper.get(`/api/check-payment-status/${orderId}`);
    expect(status.body).toMatchObject({ paymentDetected: true });
    expect(['received', 'forwarded']).toContain(status.body.status);

    // The shopper sends the rest anyway: it is the payer's, held for them with a claim link.
    await payUsdc(t.stack.env, 3, address, usdc('4.80'));
    const excess = await waitUntil(async () => {
      const rows = await refundRows(orderId);
      return rows.find((r) => r.reason === 'excess');
    }, 'the top-up held for the payer');
    expect(excess).toMatchObject({ source: 'deposit', amount: '4800000' });
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(splitFee(usdc('6.00')).merchant);
    expect((await walletOf(t.database.db, orderId)).exception).toBe('accepted_underpaid');

    // Paid and forwarded: a refund now comes from the payout wallet, at most what arrived.
    const refund = await owner.api.post(`/api/orders/${orderId}/refunds`, {});
    expect(refund.status).toBe(200);
    expect(refund.body.refunds).toContainEqual(
      expect.objectContaining({
        source: 'merchant',
        amount: '6.000000',
        status: 'awaiting_address',
      }),
    );
  }, 90_000);
});

describe('an oversold order', () => {
  test('paid after its hold with the stock gone: its payer gets the whole payment back, the merchant nothing', async () => {
    const { payout, orderId, buyerToken, address } = await storeOrder();
    const payer = getAddress(localAccount(3).address);
    // The order's hold ended and its mug sold meanwhile (the stock is 0 when the payment lands).
    await t.database.db
      .update(orders)
      .set({ stockHeldUntil: sql`now() - interval '1 second'` })
      .where(eq(orders.id, orderId));
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    const productId = order?.items[0]?.productId ?? '';
    await t.database.db.update(products).set({ inventory: 0 }).where(eq(products.id, productId));
    const payerBefore = (await balancesOf(t.stack.env, payer)).usdc;
    await payUsdc(t.stack.env, 3, address, usdc('10.80'));

    const [held] = await waitUntil(async () => {
      const rows = await refundRows(orderId);
      return rows.length > 0 && rows;
    }, 'the oversold refund');
    expect(held).toMatchObject({
      reason: 'oversold',
      source: 'deposit',
      amount: '10800000',
      status: 'awaiting_address',
      suggestedAddress: payer,
    });
    await webhookOf(orderId, 'order.refund_requested');
    const [claim] = await pageClaims(orderId, buyerToken);
    const claimed = await t.shopper.post(
      `/api/refund-claims/${tokenOf(String(claim?.claimPath))}`,
      {
        address: payer,
      },
    );
    expect(claimed.status).toBe(200);
    await waitUntil(async () => {
      const [row] = await refundRows(orderId);
      return row?.status === 'refunded' && row;
    }, 'the oversold refund on chain');
    expect((await balancesOf(t.stack.env, payer)).usdc).toBe(payerBefore);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(0n);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(0n);
  }, 60_000);
});

describe('a paid order already forwarded', () => {
  test('is refunded by its merchant from the payout wallet, in part then in full, matched on chain', async () => {
    // The payout wallet is an anvil account the test can send from (as the merchant's wallet would).
    const owner = await newMerchant(t.app, 'payout');
    const payout = getAddress(localAccount(8).address);
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
    const { orderId, buyerToken } = await orderOneMug(owner, t.shopper, store.id);
    const deposit = (
      await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
    ).body.paymentWallet.address as Address;
    const payer = getAddress(localAccount(4).address);
    await payUsdc(t.stack.env, 4, deposit, usdc('10.80'));
    await waitForForwarded(t.database.db, orderId);
    const view = (await owner.api.get(`/api/orders/${orderId}/refunds`)).body;
    expect(view).toMatchObject({ refundableFromPayout: '10.800000', payoutAddress: payout });

    const stranger = await newMerchant(t.app, 'stranger');
    expect(
      (await stranger.api.post(`/api/orders/${orderId}/refunds`, { amount: '1' })).status,
    ).toBe(404);
    expect((await apiClient(t.app).post(`/api/orders/${orderId}/refunds`, {})).status).toBe(401);
    const tooMuch = await owner.api.post(`/api/orders/${orderId}/refunds`, { amount: '10.81' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.message).toMatch(/At most 10\.800000 USDC/);
    expect((await owner.api.post(`/api/orders/${orderId}/refunds`, { amount: '-1' })).status).toBe(
      422,
    );

    const partial = await owner.api.post(`/api/orders/${orderId}/refunds`, { amount: '4.00' });
    expect(partial.status).toBe(200);
    expect(partial.body.refundableFromPayout).toBe('6.800000');
    const [refund] = partial.body.refunds;
    expect(refund).toMatchObject({
      source: 'merchant',
      reason: 'merchant',
      amount: '4.000000',
      status: 'awaiting_address',
      suggestedAddress: payer,
    });
    // Before the payer confirms the address there is nothing to send.
    const early = await owner.api.post(`/api/orders/${orderId}/refunds/${refund.id}/sent`, {
      txHash: `0x${'ab'.repeat(32)}`,
    });
    expect(early.status).toBe(409);
    const token = tokenOf(String((await pageClaims(orderId, buyerToken))[0]?.claimPath));
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: payer })).status).toBe(
      200,
    );
    const payerBefore = (await balancesOf(t.stack.env, payer)).usdc;
    // The merchant's wallet sends the transfer; the order page notes its hash.
    const { hash } = await payUsdc(t.stack.env, 8, payer, usdc('4.00'));
    expect(
      (
        await stranger.api.post(`/api/orders/${orderId}/refunds/${refund.id}/sent`, {
          txHash: hash,
        })
      ).status,
    ).toBe(404);
    const sent = await owner.api.post(`/api/orders/${orderId}/refunds/${refund.id}/sent`, {
      txHash: hash,
    });
    expect(sent.status).toBe(200);
    const done = await waitUntil(async () => {
      const [row] = await refundRows(orderId);
      return row?.status === 'refunded' && row;
    }, 'the merchant refund to be matched');
    expect(done.txHash).toBe(hash);
    expect((await balancesOf(t.stack.env, payer)).usdc - payerBefore).toBe(usdc('4.00'));
    const hook = await webhookOf(orderId, 'order.refunded');
    expect(JSON.parse(hook.body).refund).toMatchObject({
      source: 'merchant',
      amount: '4.000000',
      txHash: hash,
    });

    // The rest, in full: what is left; then nothing is left to refund.
    const rest = await owner.api.post(`/api/orders/${orderId}/refunds`, {});
    expect(rest.status).toBe(200);
    expect(rest.body.refunds[1]).toMatchObject({ amount: '6.800000', status: 'awaiting_address' });
    expect(rest.body.refundableFromPayout).toBe('0.000000');
    expect((await owner.api.post(`/api/orders/${orderId}/refunds`, {})).status).toBe(409);
  }, 60_000);
});

describe('a merchant cannot take the payer’s refund', () => {
  /** The claim tokens the merchant can make or read: none of them opens the refund. */
  async function merchantTries(owner: ApiClient, orderId: string, refundId: string) {
    const forged = `${refundId}.${createHmac('sha256', orderId).update(`refund-claim:${refundId}`).digest('base64url')}`;
    expect((await t.shopper.get(`/api/refund-claims/${forged}`)).status).toBe(404);
    expect((await owner.get(`/api/orders/${orderId}/refund-claims`)).status).toBe(404);
    expect((await t.shopper.get(`/api/orders/${orderId}/refund-claims`)).status).toBe(404);
    expect(
      (await t.shopper.get(`/api/orders/${orderId}/refund-claims`, buyer('x'.repeat(64)))).status,
    ).toBe(404);
  }

  test('dust sent to an unpaid order after its payment: the refund still goes to the payer', async () => {
    const { owner, payout, orderId, buyerToken, address } = await storeOrder(t.appWithWindow(3));
    const payer = getAddress(localAccount(5).address);
    const merchantWallet = getAddress(localAccount(6).address);
    await payUsdc(t.stack.env, 5, address, usdc('5.00'));
    await webhookOf(orderId, 'order.underpaid');
    // The merchant dusts the deposit address from a wallet of its own, later than the payment.
    await payUsdc(t.stack.env, 6, address, 1n);
    await waitUntil(
      async () => (await walletOf(t.database.db, orderId)).receivedAmountUsdc === '5.000001',
      'the dust at depth',
    );
    await Bun.sleep(3500);
    const merchantBefore = (await balancesOf(t.stack.env, merchantWallet)).usdc;
    const payerBefore = (await balancesOf(t.stack.env, payer)).usdc;
    const started = await owner.api.post(`/api/orders/${orderId}/refunds`, {});
    expect(started.status).toBe(200);
    const [refund] = started.body.refunds;
    expect(refund).toMatchObject({ amount: '5.000001', suggestedAddress: payer });
    expect(refund.claimPath).toBeUndefined();
    await merchantTries(owner.api, orderId, refund.id);
    // The payer is mailed a link of their own.
    const mails = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'refund_claim')));
    expect(mails.map((m) => m.payload?.refundId)).toEqual([refund.id]);
    // The shopper's own page confirms the address that paid; nothing else.
    const token = tokenOf(String((await pageClaims(orderId, buyerToken))[0]?.claimPath));
    const claim = (await t.shopper.get(`/api/refund-claims/${token}`)).body;
    expect(claim).toMatchObject({ suggestedAddress: payer, addressLocked: true });
    expect(
      (await t.shopper.post(`/api/refund-claims/${token}`, { address: merchantWallet })).status,
    ).toBe(422);
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: payer })).status).toBe(
      200,
    );
    await waitUntil(async () => {
      const [row] = await refundRows(orderId);
      return row?.status === 'refunded' && row;
    }, 'the refund on chain');
    expect((await balancesOf(t.stack.env, payer)).usdc - payerBefore).toBe(usdc('5.000001'));
    expect((await balancesOf(t.stack.env, merchantWallet)).usdc).toBe(merchantBefore);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(0n);
  }, 60_000);

  test('a paid order dusted from the payout wallet: the merchant refund is owed to the payer', async () => {
    const owner = await newMerchant(t.app, 'dust');
    const payout = getAddress(localAccount(7).address);
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const { orderId } = await orderOneMug(owner, t.shopper, store.id);
    const deposit = (
      await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
    ).body.paymentWallet.address as Address;
    const payer = getAddress(localAccount(3).address);
    await payUsdc(t.stack.env, 3, deposit, usdc('10.80'));
    await waitForForwarded(t.database.db, orderId);
    // The merchant dusts the deposit address from its payout wallet, then refunds "to the payer".
    await payUsdc(t.stack.env, 7, deposit, 1n);
    const excess = await waitUntil(async () => {
      const rows = await refundRows(orderId);
      return rows.find((r) => r.reason === 'excess');
    }, 'the dust held as an excess');
    expect(excess.suggestedAddress).toBe(payer);
    await waitForForwarded(t.database.db, orderId);
    const started = await owner.api.post(`/api/orders/${orderId}/refunds`, { amount: '5.00' });
    expect(started.status).toBe(200);
    const refund = started.body.refunds.find((r: { source: string }) => r.source === 'merchant');
    expect(refund).toMatchObject({ amount: '5.000000', suggestedAddress: payer });
    await merchantTries(owner.api, orderId, refund.id);
    // Each refund opened for the payer mailed them its own link.
    const mails = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'refund_claim')));
    expect(mails.map((m) => m.payload?.refundId).sort()).toEqual([excess.id, refund.id].sort());
    // The merchant pays its own payout wallet... it is no transfer to the payer: nothing matches.
    const { hash } = await payUsdc(t.stack.env, 7, payout, usdc('5.00'));
    expect(
      (
        await owner.api.post(`/api/orders/${orderId}/refunds/${refund.id}/sent`, {
          txHash: hash,
        })
      ).status,
    ).toBe(409);
    await Bun.sleep(1500);
    const [row] = await t.database.db.select().from(refunds).where(eq(refunds.id, refund.id));
    expect(row?.status).toBe('awaiting_address');
  }, 60_000);
});

test('the chain ledger holds: received = merchant + treasury + refunded + held, per address', async () => {
  expect(await ledgerBreaches(t.database.db)).toEqual([]);
  const ledger = await chainLedger(t.stack.env, t.database.db);
  expect(ledger.breaches).toEqual([]);
  expect(ledger.authorizationsUsedTwice).toEqual([]);
  // 2.50 excess + 4.00 underpaid + 10.80 oversold + 5.000001 dusted underpaid went back to payers
  // (the merchant-wallet refund is not a deposit address's; the paid order's dust is still held).
  expect(ledger.wallets.reduce((sum, w) => sum + w.toPayer, 0n)).toBe(usdc('22.300001'));
});
