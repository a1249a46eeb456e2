import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AssignPaymentWalletSchema,
  PaymentStatusResponseSchema,
  PaymentWalletEnvelopeSchema,
  PaymentWalletSchema,
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

  it('keeps received amounts at 6 decimals and gas at 18', () => {
    const row = {
      id: 'w1',
      orderId: 'o1',
      walletAddress: `0x${'b'.repeat(40)}`,
      derivationPath: "m/44'/60'/0'/0/7",
      expectedAmountUsdc: '41.05',
      receivedAmountUsdc: '41.049999',
      storePaymentAddress: `0x${'c'.repeat(40)}`,
      paymentReceived: true,
      expiredAt: null,
      gasFunded: false,
      gasAmountSent: '0',
      forwardingCompleted: false,
      forwardingRetryCount: 0,
      actualGasUsed: '0.000000000000000001',
      paymentChain: 'base',
    };
    expect(v.is(PaymentWalletSchema, row)).toBe(true);
    expect(v.is(PaymentWalletSchema, { ...row, receivedAmountUsdc: '1.0000001' })).toBe(false);
    expect(v.is(PaymentWalletSchema, { ...row, actualGasUsed: '0.0000000000000000001' })).toBe(
      false,
    );
  });
});
