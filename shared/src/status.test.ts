import { describe, expect, it } from 'vitest';
import {
  API_PAYMENT_STATUSES,
  CLIENT_PAYMENT_STATUS_LABELS,
  canTransitionOrder,
  isApiPaymentStatus,
  isOrderStatus,
  isRevenueStatus,
  ORDER_STATUSES,
  orderStatusTone,
} from './status.ts';

describe('order statuses', () => {
  it('lists the statuses in lifecycle order', () => {
    expect(ORDER_STATUSES).toEqual([
      'pending',
      'paid',
      'processing',
      'shipped',
      'completed',
      'reversed',
    ]);
    expect(isOrderStatus('shipped')).toBe(true);
    expect(isOrderStatus('refunded')).toBe(false);
  });

  it('counts revenue for paid, processing, shipped and completed only', () => {
    expect(ORDER_STATUSES.filter(isRevenueStatus)).toEqual([
      'paid',
      'processing',
      'shipped',
      'completed',
    ]);
  });

  it('allows only paid -> processing -> shipped -> completed by hand', () => {
    const allowed = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canTransitionOrder(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed).toEqual(['paid>processing', 'processing>shipped', 'shipped>completed']);
  });

  it('tones badges: paid green, pending amber, others grey', () => {
    expect(orderStatusTone('paid')).toBe('success');
    expect(orderStatusTone('pending')).toBe('warning');
    expect(orderStatusTone('shipped')).toBe('neutral');
  });
});

describe('payment statuses', () => {
  it('names the API and client statuses', () => {
    expect(API_PAYMENT_STATUSES).toEqual([
      'waiting',
      'detected_pending_processing',
      'received',
      'underpaid',
      'expired',
      'forwarded',
      'reversed',
    ]);
    expect(isApiPaymentStatus('received')).toBe(true);
    expect(isApiPaymentStatus('paid')).toBe(false);
    expect(CLIENT_PAYMENT_STATUS_LABELS).toEqual({
      waiting: 'Waiting for Payment',
      processing: 'Processing Payment',
      confirmed: 'Payment Confirmed',
      failed: 'Payment Failed',
    });
  });
});
