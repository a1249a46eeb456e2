import { describe, expect, it } from 'vitest';
import { paymentProgress } from './payment-progress.tsx';

const check = (status: string, confirmations: number | null, paymentDetected = true) =>
  ({
    paymentDetected,
    status,
    receivedAmount: '10.800000',
    expectedAmount: '10.80',
    confirmations,
    requiredConfirmations: 10,
  }) as Parameters<typeof paymentProgress>[0];

describe('paymentProgress', () => {
  it('says nothing before the full amount is seen, or after a reversal', () => {
    expect(paymentProgress(undefined)).toBeUndefined();
    expect(paymentProgress(check('waiting', 0, false))).toBeUndefined();
    expect(paymentProgress(check('underpaid', 1, false))).toBeUndefined();
    expect(paymentProgress(check('reversed', 0, true))).toBeUndefined();
  });

  it('counts the confirmations of a detected payment up to the depth', () => {
    expect(paymentProgress(check('detected_pending_processing', 3))).toEqual({
      title: 'Payment detected',
      detail: '3 of 10 confirmations',
      count: 3,
      required: 10,
    });
    expect(paymentProgress(check('detected_pending_processing', 12))?.detail).toBe(
      '10 of 10 confirmations',
    );
  });

  it('shows a received payment at full depth, and a detected one without a count when unknown', () => {
    expect(paymentProgress(check('received', null))?.detail).toBe('10 of 10 confirmations');
    expect(paymentProgress(check('forwarded', 4))?.title).toBe('Payment received');
    expect(paymentProgress(check('detected_pending_processing', null))).toEqual({
      title: 'Payment detected',
      detail: undefined,
    });
  });
});
