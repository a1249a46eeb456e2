// The webhook payload built from an order and its deposit wallet, without a database: the
// amounts an underpaid payment reports before its transfers reach the confirmation depth.
import { describe, expect, test } from 'bun:test';
import { WEBHOOK_PAYLOAD_SCHEMAS } from '@store/shared';
import * as v from 'valibot';
import type { orders, paymentWallets } from '../db/schema.ts';
import { serializePayload } from './events.ts';

const at = new Date('2026-01-15T10:04:12.000Z');
const order = {
  id: '6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f',
  storeId: '0b3a5c1e-2d4f-4a6b-8c9d-0e1f2a3b4c5d',
  source: 'storefront',
  customerEmail: 'ada@example.com',
  shippingAddress: null,
  items: [{ productId: 'p-1', title: 'Hoodie', priceUsdc: '25.00', quantity: 1 }],
  subtotalUsdc: '25.00',
  shippingUsdc: '0.00',
  taxUsdc: '2.00',
  totalUsdc: '27.00',
  status: 'pending',
  paymentChain: 'base',
  paymentTxHash: null,
  paymentAddress: null,
  metadata: null,
} as unknown as typeof orders.$inferSelect;
const wallet = {
  walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  storePaymentAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  externalOrderId: null,
  status: 'waiting',
  exception: 'underpaid',
  expectedAmountUsdc: '27.00',
  detectedAmountUsdc: '20.000000',
  receivedAmountUsdc: '0.000000',
  forwardedAmountUsdc: '0.000000',
  depositTxHash: `0x${'3b'.repeat(32)}`,
  paymentReceivedAt: null,
} as unknown as typeof paymentWallets.$inferSelect;

describe('serializePayload', () => {
  test('order.underpaid reports what arrived, before it reaches the confirmation depth', () => {
    const payload = JSON.parse(serializePayload('order.underpaid', at, order, wallet));
    expect(v.parse(WEBHOOK_PAYLOAD_SCHEMAS['order.underpaid'], payload)).toMatchObject({
      paymentStatus: 'waiting',
      paymentException: 'underpaid',
      paymentWallet: { expectedAmount: '27.00', receivedAmount: '20.000000' },
      subtotalUsdc: '25.00',
      taxUsdc: '2.00',
      totalUsdc: '27.00',
    });
  });

  test('a paid wallet reports its confirmed amount', () => {
    const paid = {
      ...wallet,
      status: 'received',
      exception: 'none',
      detectedAmountUsdc: '27.000000',
      receivedAmountUsdc: '27.000000',
      paymentReceivedAt: at,
    } as typeof wallet;
    const payload = JSON.parse(
      serializePayload('order.paid', at, { ...order, status: 'paid' }, paid),
    );
    expect(payload.paymentWallet.receivedAmount).toBe('27.000000');
  });
});
