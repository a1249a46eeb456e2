import { describe, expect, it } from 'vitest';
import { legAmount, paymentException } from './order-payment.ts';

describe('paymentException', () => {
  it('underpaid: what arrived and what is missing', () => {
    expect(paymentException('underpaid', '27.00', '20.000000')).toEqual({
      kind: 'underpaid',
      received: '20.00',
      missing: '7.00',
    });
    // what the server stored decides, never the amounts
    expect(paymentException('none', '27.00', '20.000000')).toBeUndefined();
    // seen, not yet at the confirmation depth
    expect(paymentException('underpaid', '27.00', '0.000000', '20.000000')).toEqual({
      kind: 'underpaid',
      received: '20.00',
      missing: '7.00',
    });
  });

  it('overpaid: the extra', () => {
    expect(paymentException('overpaid', '41.06', '44.060000')).toEqual({
      kind: 'overpaid',
      received: '44.06',
      extra: '3.00',
    });
  });

  it('paid late; nothing for an exact payment, one still waiting or an expired empty one', () => {
    expect(paymentException('paid_late', '5.00', '5.000000')).toEqual({ kind: 'paid_late' });
    expect(paymentException('none', '5.00', '5.000000')).toBeUndefined();
    expect(paymentException('none', '5.00', '0')).toBeUndefined();
  });

  it('accepted underpaid: what arrived and the shortfall the merchant accepted', () => {
    expect(paymentException('accepted_underpaid', '27.00', '20.000000')).toEqual({
      kind: 'accepted_underpaid',
      received: '20.00',
      missing: '7.00',
    });
  });
});

describe('legAmount', () => {
  it('reads base units as USDC', () => {
    expect(legAmount('40238800')).toBe('40.2388');
    expect(legAmount('821200')).toBe('0.8212');
    expect(legAmount('oops')).toBe('oops');
  });
});
