import { describe, expect, it } from 'vitest';
import {
  apiPaymentStatus,
  type DepositTransfer,
  isPaymentDetected,
  nextPaymentState,
  PAYMENT_EXCEPTIONS,
  PAYMENT_PHASES,
  PAYMENT_STATES,
  type PaymentException,
  type PaymentPhase,
  type PaymentState,
  paymentExceptionOf,
  paymentPhase,
  reportedPaymentException,
} from './payment-state.ts';

const EXPIRES_AT = 1_800_000_000_000; // ms
const BEFORE = BigInt(EXPIRES_AT / 1000 - 60); // block seconds a minute before expiry
const AFTER = BigInt(EXPIRES_AT / 1000 + 60);
const settings = { confirmations: 2 };

const transfer = (value: bigint, blockNumber: bigint, at = BEFORE, tx = `0x${blockNumber}`) =>
  ({ value, blockNumber, blockTimestamp: at, txHash: tx }) satisfies DepositTransfer;

/** The state and exception a phase is stored as (the previous exception of a wallet). */
const STORED: Record<PaymentPhase, [PaymentState, PaymentException]> = {
  waiting: ['waiting', 'none'],
  detected: ['detected', 'none'],
  underpaid: ['waiting', 'underpaid'],
  received: ['received', 'none'],
  overpaid: ['received', 'overpaid'],
  paid_late: ['received', 'paid_late'],
  expired: ['expired', 'none'],
  reversed: ['reversed', 'none'],
};

/** One step from a wallet in `from`; the result with its phase. */
function step(
  from: PaymentPhase,
  transfers: DepositTransfer[],
  headBlock: bigint,
  now = EXPIRES_AT - 1000,
) {
  const [state, exception] = STORED[from];
  const result = nextPaymentState(
    { state, exception, expected: 10_000_000n, expiresAt: EXPIRES_AT },
    { transfers, headBlock },
    now,
    settings,
  );
  return { ...result, phase: paymentPhase(result.state, result.exception) };
}

describe('nextPaymentState', () => {
  it('waits while nothing arrived and the window is open, then expires', () => {
    expect(step('waiting', [], 100n).phase).toBe('waiting');
    expect(step('waiting', [], 100n, EXPIRES_AT).phase).toBe('expired');
  });

  it('detects the exact amount below depth, then receives it at depth', () => {
    const paid = [transfer(10_000_000n, 100n, BEFORE, '0xaa')];
    expect(step('waiting', paid, 100n)).toEqual({
      state: 'detected',
      exception: 'none',
      phase: 'detected',
      detected: 10_000_000n,
      received: 0n,
      paymentTxHash: '0xaa',
    });
    expect(step('detected', paid, 101n)).toEqual({
      state: 'received',
      exception: 'none',
      phase: 'received',
      detected: 10_000_000n,
      received: 10_000_000n,
      paymentTxHash: '0xaa',
    });
  });

  it('adds up partial transfers; the one that completes the sum is the payment tx', () => {
    const first = transfer(4_000_000n, 100n, BEFORE, '0x01');
    const second = transfer(6_000_000n, 103n, BEFORE, '0x02');
    expect(step('waiting', [first], 101n).phase).toBe('underpaid');
    expect(step('underpaid', [first, second], 103n).phase).toBe('detected');
    const done = step('detected', [first, second], 104n);
    expect(done.phase).toBe('received');
    expect(done.paymentTxHash).toBe('0x02');
  });

  it('stays underpaid at expiry, and a late top-up is paid late', () => {
    const first = transfer(4_000_000n, 100n);
    expect(step('underpaid', [first], 200n, EXPIRES_AT + 1).phase).toBe('underpaid');
    const topUp = transfer(6_000_000n, 300n, AFTER);
    expect(step('underpaid', [first, topUp], 300n, EXPIRES_AT + 1).phase).toBe('detected');
    expect(step('detected', [first, topUp], 301n, EXPIRES_AT + 1).phase).toBe('paid_late');
  });

  it('reports overpaid at depth, and received turns overpaid when more arrives', () => {
    expect(step('detected', [transfer(12_000_000n, 100n)], 101n).phase).toBe('overpaid');
    const exact = transfer(10_000_000n, 100n);
    const extra = transfer(1n, 110n);
    expect(step('received', [exact, extra], 110n).phase).toBe('received');
    expect(step('received', [exact, extra], 111n).phase).toBe('overpaid');
  });

  it('judges lateness by the block of the completing transfer, not by when it is seen', () => {
    const onTime = [transfer(10_000_000n, 100n, BEFORE)];
    expect(step('expired', onTime, 101n, EXPIRES_AT + 3_600_000).phase).toBe('received');
    const late = [transfer(10_000_000n, 100n, AFTER)];
    expect(step('expired', late, 100n, EXPIRES_AT + 3_600_000).phase).toBe('detected');
    expect(step('detected', late, 101n, EXPIRES_AT + 3_600_000).phase).toBe('paid_late');
  });

  it('goes back when a reorg removes a detected transfer before depth', () => {
    expect(step('detected', [], 101n).phase).toBe('waiting');
    expect(step('detected', [transfer(1_000_000n, 100n)], 101n).phase).toBe('underpaid');
  });

  it('stays paid while the payment is still seen, whatever the clock says', () => {
    for (const state of ['received', 'overpaid', 'paid_late'] as const) {
      expect(step(state, [transfer(10_000_000n, 100n)], 200n, EXPIRES_AT + 1).phase).toBe(state);
    }
  });

  it('is reversed, loudly, when a reorg deeper than the depth removes the payment', () => {
    for (const state of ['received', 'overpaid', 'paid_late'] as const) {
      expect(step(state, [], 200n, EXPIRES_AT + 1)).toMatchObject({
        state: 'reversed',
        received: 0n,
      });
      expect(step(state, [transfer(4_000_000n, 100n)], 200n).phase).toBe('reversed');
    }
    // Back below depth only: still reversed; the full amount at depth again: paid again.
    expect(step('reversed', [transfer(10_000_000n, 200n)], 200n).phase).toBe('reversed');
    expect(step('reversed', [transfer(10_000_000n, 150n)], 200n).phase).toBe('received');
    expect(step('reversed', [], 200n, EXPIRES_AT + 1).phase).toBe('reversed');
  });

  it('counts a transfer indexed ahead of the head checkpoint as unconfirmed', () => {
    expect(step('waiting', [transfer(10_000_000n, 100n)], 99n)).toMatchObject({
      state: 'detected',
      received: 0n,
    });
  });

  it('with depth 0 receives what is seen', () => {
    const result = nextPaymentState(
      { state: 'waiting', exception: 'none', expected: 1n, expiresAt: EXPIRES_AT },
      { transfers: [transfer(1n, 5n)], headBlock: 5n },
      0,
      { confirmations: 0 },
    );
    expect(result.state).toBe('received');
  });
});

describe('stored state and exception', () => {
  it('stores where a payment is apart from what went wrong, and reads every pair back', () => {
    expect(PAYMENT_STATES).toEqual(['waiting', 'detected', 'received', 'expired', 'reversed']);
    for (const phase of PAYMENT_PHASES) {
      const [state, exception] = STORED[phase];
      expect(paymentPhase(state, exception)).toBe(phase);
    }
    // An accepted short payment is received; an underpaid one whose window closed while waiting
    // for a top-up is still waiting (a top-up completes it).
    expect(paymentPhase('received', 'accepted_underpaid')).toBe('received');
    expect(paymentPhase('expired', 'underpaid')).toBe('expired');
    expect(paymentPhase('reversed', 'accepted_underpaid')).toBe('reversed');
  });

  it('writes the exception with the state in the same step', () => {
    expect(step('waiting', [transfer(4_000_000n, 100n)], 101n)).toMatchObject({
      state: 'waiting',
      exception: 'underpaid',
    });
    expect(step('detected', [transfer(12_000_000n, 100n)], 101n)).toMatchObject({
      state: 'received',
      exception: 'overpaid',
    });
    expect(step('detected', [transfer(10_000_000n, 100n, AFTER)], 101n)).toMatchObject({
      state: 'received',
      exception: 'paid_late',
    });
    expect(step('overpaid', [], 101n)).toMatchObject({ state: 'reversed', exception: 'none' });
  });

  it('keeps an accepted short payment accepted through more money and a reorg', () => {
    const accepted = (transfers: DepositTransfer[], headBlock: bigint) =>
      nextPaymentState(
        { state: 'received', exception: 'accepted_underpaid', expected: 6_000_000n, expiresAt: 0 },
        { transfers, headBlock },
        EXPIRES_AT,
        settings,
      );
    const six = transfer(6_000_000n, 100n);
    expect(accepted([six, transfer(1n, 101n)], 110n)).toMatchObject({
      state: 'received',
      exception: 'accepted_underpaid',
    });
    expect(accepted([], 110n)).toMatchObject({
      state: 'reversed',
      exception: 'accepted_underpaid',
    });
  });
});

describe('status API view', () => {
  it('maps every phase to an API status and the detected flag', () => {
    const view = PAYMENT_PHASES.map((p) => {
      const [state, exception] = STORED[p];
      return [p, apiPaymentStatus(state, exception), isPaymentDetected(state)];
    });
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
    expect(apiPaymentStatus('received', 'none', true)).toBe('forwarded');
    // Money forwarded for a payment that no longer exists is not a payment.
    expect(apiPaymentStatus('reversed', 'none', true)).toBe('reversed');
    expect(PAYMENT_EXCEPTIONS).toContain('accepted_underpaid');
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

describe('reportedPaymentException', () => {
  const ten = 10_000_000n;
  it('reports an excess seen in full below depth as overpaid, though none is stored yet', () => {
    expect(reportedPaymentException('detected', 'none', ten + 1n, ten)).toBe('overpaid');
    expect(reportedPaymentException('detected', 'none', ten, ten)).toBe('none');
  });

  it('reports every other exception as stored', () => {
    expect(reportedPaymentException('received', 'none', ten + 1n, ten)).toBe('none');
    expect(reportedPaymentException('received', 'paid_late', ten + 1n, ten)).toBe('paid_late');
    expect(reportedPaymentException('waiting', 'underpaid', 1n, ten)).toBe('underpaid');
    expect(reportedPaymentException('reversed', 'accepted_underpaid', ten + 1n, ten)).toBe(
      'accepted_underpaid',
    );
  });
});
