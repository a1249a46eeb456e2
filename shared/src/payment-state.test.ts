import { describe, expect, it } from 'vitest';
import {
  apiPaymentStatus,
  type DepositTransfer,
  isPaymentDetected,
  nextPaymentState,
  PAYMENT_STATES,
  type PaymentState,
  paymentExceptionOf,
} from './payment-state.ts';

const EXPIRES_AT = 1_800_000_000_000; // ms
const BEFORE = BigInt(EXPIRES_AT / 1000 - 60); // block seconds a minute before expiry
const AFTER = BigInt(EXPIRES_AT / 1000 + 60);
const settings = { confirmations: 2 };

const transfer = (value: bigint, blockNumber: bigint, at = BEFORE, tx = `0x${blockNumber}`) =>
  ({ value, blockNumber, blockTimestamp: at, txHash: tx }) satisfies DepositTransfer;

function step(
  state: PaymentState,
  transfers: DepositTransfer[],
  headBlock: bigint,
  now = EXPIRES_AT - 1000,
) {
  return nextPaymentState(
    { state, expected: 10_000_000n, expiresAt: EXPIRES_AT },
    { transfers, headBlock },
    now,
    settings,
  );
}

describe('nextPaymentState', () => {
  it('waits while nothing arrived and the window is open, then expires', () => {
    expect(step('waiting', [], 100n).state).toBe('waiting');
    expect(step('waiting', [], 100n, EXPIRES_AT).state).toBe('expired');
  });

  it('detects the exact amount below depth, then receives it at depth', () => {
    const paid = [transfer(10_000_000n, 100n, BEFORE, '0xaa')];
    expect(step('waiting', paid, 100n)).toEqual({
      state: 'detected',
      detected: 10_000_000n,
      received: 0n,
      paymentTxHash: '0xaa',
    });
    expect(step('detected', paid, 101n)).toEqual({
      state: 'received',
      detected: 10_000_000n,
      received: 10_000_000n,
      paymentTxHash: '0xaa',
    });
  });

  it('adds up partial transfers; the one that completes the sum is the payment tx', () => {
    const first = transfer(4_000_000n, 100n, BEFORE, '0x01');
    const second = transfer(6_000_000n, 103n, BEFORE, '0x02');
    expect(step('waiting', [first], 101n).state).toBe('underpaid');
    expect(step('underpaid', [first, second], 103n).state).toBe('detected');
    const done = step('detected', [first, second], 104n);
    expect(done.state).toBe('received');
    expect(done.paymentTxHash).toBe('0x02');
  });

  it('stays underpaid at expiry, and a late top-up is paid late', () => {
    const first = transfer(4_000_000n, 100n);
    expect(step('underpaid', [first], 200n, EXPIRES_AT + 1).state).toBe('underpaid');
    const topUp = transfer(6_000_000n, 300n, AFTER);
    expect(step('underpaid', [first, topUp], 300n, EXPIRES_AT + 1).state).toBe('detected');
    expect(step('detected', [first, topUp], 301n, EXPIRES_AT + 1).state).toBe('paid_late');
  });

  it('reports overpaid at depth, and received turns overpaid when more arrives', () => {
    expect(step('detected', [transfer(12_000_000n, 100n)], 101n).state).toBe('overpaid');
    const exact = transfer(10_000_000n, 100n);
    const extra = transfer(1n, 110n);
    expect(step('received', [exact, extra], 110n).state).toBe('received');
    expect(step('received', [exact, extra], 111n).state).toBe('overpaid');
  });

  it('judges lateness by the block of the completing transfer, not by when it is seen', () => {
    const onTime = [transfer(10_000_000n, 100n, BEFORE)];
    expect(step('expired', onTime, 101n, EXPIRES_AT + 3_600_000).state).toBe('received');
    const late = [transfer(10_000_000n, 100n, AFTER)];
    expect(step('expired', late, 100n, EXPIRES_AT + 3_600_000).state).toBe('detected');
    expect(step('detected', late, 101n, EXPIRES_AT + 3_600_000).state).toBe('paid_late');
  });

  it('goes back when a reorg removes a detected transfer before depth', () => {
    expect(step('detected', [], 101n).state).toBe('waiting');
    expect(step('detected', [transfer(1_000_000n, 100n)], 101n).state).toBe('underpaid');
  });

  it('stays paid while the payment is still seen, whatever the clock says', () => {
    for (const state of ['received', 'overpaid', 'paid_late'] as const) {
      expect(step(state, [transfer(10_000_000n, 100n)], 200n, EXPIRES_AT + 1).state).toBe(state);
    }
  });

  it('is reversed, loudly, when a reorg deeper than the depth removes the payment', () => {
    for (const state of ['received', 'overpaid', 'paid_late'] as const) {
      expect(step(state, [], 200n, EXPIRES_AT + 1)).toMatchObject({
        state: 'reversed',
        received: 0n,
      });
      expect(step(state, [transfer(4_000_000n, 100n)], 200n).state).toBe('reversed');
    }
    // Back below depth only: still reversed; the full amount at depth again: paid again.
    expect(step('reversed', [transfer(10_000_000n, 200n)], 200n).state).toBe('reversed');
    expect(step('reversed', [transfer(10_000_000n, 150n)], 200n).state).toBe('received');
    expect(step('reversed', [], 200n, EXPIRES_AT + 1).state).toBe('reversed');
  });

  it('counts a transfer indexed ahead of the head checkpoint as unconfirmed', () => {
    expect(step('waiting', [transfer(10_000_000n, 100n)], 99n)).toMatchObject({
      state: 'detected',
      received: 0n,
    });
  });

  it('with depth 0 receives what is seen', () => {
    const result = nextPaymentState(
      { state: 'waiting', expected: 1n, expiresAt: EXPIRES_AT },
      { transfers: [transfer(1n, 5n)], headBlock: 5n },
      0,
      { confirmations: 0 },
    );
    expect(result.state).toBe('received');
  });
});

describe('status API view', () => {
  it('maps every state to an API status and the detected flag', () => {
    const view = PAYMENT_STATES.map((s) => [s, apiPaymentStatus(s), isPaymentDetected(s)]);
    expect(view).toEqual([
      ['waiting', 'waiting', false],
      ['detected', 'detected_pending_processing', true],
      ['underpaid', 'underpaid', false],
      ['received', 'received', true],
      ['overpaid', 'received', true],
      ['paid_late', 'received', true],
      ['expired', 'expired', false],
      ['reversed', 'reversed', false],
    ]);
    expect(apiPaymentStatus('received', true)).toBe('forwarded');
    // Money forwarded for a payment that no longer exists is not a payment.
    expect(apiPaymentStatus('reversed', true)).toBe('reversed');
  });
});

describe('paymentExceptionOf', () => {
  it('names what went wrong apart from where the payment is', () => {
    expect(paymentExceptionOf('waiting', 0n)).toBe('none');
    expect(paymentExceptionOf('detected', 10n)).toBe('none');
    expect(paymentExceptionOf('received', 10n)).toBe('none');
    expect(paymentExceptionOf('underpaid', 4n)).toBe('underpaid');
    expect(paymentExceptionOf('overpaid', 13n)).toBe('overpaid');
    expect(paymentExceptionOf('paid_late', 10n)).toBe('paid_late');
    expect(paymentExceptionOf('expired', 0n)).toBe('none');
    expect(paymentExceptionOf('expired', 2n)).toBe('underpaid');
    expect(paymentExceptionOf('reversed', 0n, 'overpaid')).toBe('none');
  });

  it('keeps a merchant acceptance while the payment is paid, or reversed and may return', () => {
    expect(paymentExceptionOf('received', 6n, 'accepted_underpaid')).toBe('accepted_underpaid');
    expect(paymentExceptionOf('overpaid', 11n, 'accepted_underpaid')).toBe('accepted_underpaid');
    expect(paymentExceptionOf('reversed', 0n, 'accepted_underpaid')).toBe('accepted_underpaid');
    expect(paymentExceptionOf('underpaid', 4n, 'accepted_underpaid')).toBe('underpaid');
  });
});
