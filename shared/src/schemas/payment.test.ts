import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AssignPaymentWalletSchema,
  PaymentStatusResponseSchema,
  PaymentWalletEnvelopeSchema,
} from './payment.ts';

describe('payment schemas', () => {
  it('defaults the wallet assignment chain to base and rejects others', () => {
    expect(v.parse(AssignPaymentWalletSchema, {})).toEqual({ paymentChain: 'base' });
    expect(v.parse(AssignPaymentWalletSchema, { paymentChain: 'base' })).toEqual({
      paymentChain: 'base',
    });
    expect(v.is(AssignPaymentWalletSchema, { paymentChain: 'polygon' })).toBe(false);
  });

  it('reads the wallet response and the status check', () => {
    const wallet = { address: `0x${'a'.repeat(40)}`, expectedAmount: '41.05', chain: 'base' };
    expect(v.parse(PaymentWalletEnvelopeSchema, { paymentWallet: wallet })).toEqual({
      paymentWallet: wallet,
    });
    expect(v.is(PaymentStatusResponseSchema, { paymentDetected: false, status: 'waiting' })).toBe(
      true,
    );
    expect(v.is(PaymentStatusResponseSchema, { paymentDetected: true, status: 'done' })).toBe(
      false,
    );
  });
});
