// The forwarding rules without a chain: eligibility, amounts, the fee split and the nonces.
import { describe, expect, test } from 'bun:test';
import type { PaymentPhase } from '@store/shared';
import { backoffDelayMs } from '../loops/backoff.ts';
import {
  excessDue,
  forwardingNonce,
  isForwardable,
  MAX_FORWARDING_DELAY_MS,
  merchantDue,
  planLegs,
  roundAmount,
} from './forwarding-plan.ts';

const now = new Date('2026-01-01T12:00:00Z');
const past = new Date('2026-01-01T11:00:00Z');
const future = new Date('2026-01-01T13:00:00Z');
const wallet = (phase: PaymentPhase, received: bigint, forwarded = 0n, expiredAt = future) => ({
  phase,
  expiredAt,
  receivedAmount: received,
  forwardedAmount: forwarded,
});
const MERCHANT = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';
const TREASURY = '0x4edf64B05dE752fa6F1FD2701D20D34cf7ec1D5E';

describe('isForwardable', () => {
  test('paid wallets forward; waiting, detected and open underpaid ones do not', () => {
    for (const status of ['received', 'overpaid', 'paid_late'] as const)
      expect(isForwardable(wallet(status, 10n), now)).toBe(true);
    for (const status of ['waiting', 'detected', 'underpaid', 'expired'] as const)
      expect(isForwardable(wallet(status, 10n), now)).toBe(false);
  });

  test('an underpaid wallet waits for its merchant once its window has closed', () => {
    expect(isForwardable(wallet('underpaid', 3n, 0n, past), now)).toBe(false);
    expect(isForwardable({ ...wallet('underpaid', 3n, 0n, past), accepted: true }, now)).toBe(true);
    // Refunded instead: what arrived is held for the payer.
    expect(
      isForwardable({ ...wallet('underpaid', 3n, 0n, past), accepted: true, heldAmount: 3n }, now),
    ).toBe(false);
  });

  test('anything arriving on an address already forwarded goes too, whatever the state', () => {
    expect(isForwardable(wallet('detected', 12n, 10n, past), now)).toBe(true);
    expect(isForwardable(wallet('received', 10n, 10n), now)).toBe(false);
  });
});

describe("an overpaid wallet: the excess is the payer's", () => {
  const overpaid = { ...wallet('overpaid', 125n), expectedAmount: 100n };
  test('the merchant gets the total, the excess is due to the payer until it is held', () => {
    expect(merchantDue(overpaid, now)).toBe(100n);
    expect(excessDue(overpaid)).toBe(25n);
    const held = { ...overpaid, heldAmount: 25n };
    expect(excessDue(held)).toBe(0n);
    expect(merchantDue(held, now)).toBe(100n);
  });

  test('after the round and the refund nothing is due; a top-up is excess again', () => {
    const done = { ...overpaid, forwardedAmount: 125n, merchantForwardedAmount: 100n };
    expect(merchantDue(done, now)).toBe(0n);
    expect(excessDue(done)).toBe(0n);
    const topUp = { ...done, receivedAmount: 130n };
    expect(merchantDue(topUp, now)).toBe(0n);
    expect(excessDue(topUp)).toBe(5n);
  });

  test('a paid wallet never forwards what is held for a refund', () => {
    const held = { ...wallet('received', 100n), expectedAmount: 100n, heldAmount: 100n };
    expect(isForwardable(held, now)).toBe(false);
    expect(roundAmount(100n, held, now)).toBe(0n);
  });
});

describe('a reversed wallet', () => {
  test('forwards nothing while its window is open, even after an earlier round', () => {
    expect(isForwardable(wallet('reversed', 10n), now)).toBe(false);
    expect(isForwardable(wallet('reversed', 10n, 4n), now)).toBe(false);
  });

  test('what the reorg left on the address goes on once the window has closed', () => {
    expect(isForwardable(wallet('reversed', 10n, 0n, past), now)).toBe(true);
    expect(isForwardable(wallet('reversed', 10n, 10n, past), now)).toBe(false);
  });
});

describe('roundAmount and planLegs', () => {
  test('the round takes the balance, never more than reached depth and is unforwarded', () => {
    expect(roundAmount(15n, wallet('received', 10n))).toBe(10n);
    expect(roundAmount(4n, wallet('received', 10n, 5n))).toBe(4n);
    expect(roundAmount(0n, wallet('received', 10n))).toBe(0n);
  });

  test('merchant + fee = amount, fee 2% rounded down, merchant never below 98%', () => {
    const legs = planLegs(10_800_001n, MERCHANT, TREASURY);
    expect(legs).toEqual([
      { leg: 'merchant', to: MERCHANT, value: 10_584_001n },
      { leg: 'fee', to: TREASURY, value: 216_000n },
    ]);
    expect(legs.reduce((sum, l) => sum + l.value, 0n)).toBe(10_800_001n);
  });

  test('a fee that rounds to zero sends no fee transaction', () => {
    expect(planLegs(49n, MERCHANT, TREASURY)).toEqual([
      { leg: 'merchant', to: MERCHANT, value: 49n },
    ]);
  });
});

describe('forwardingNonce', () => {
  test('is the same for the same leg and differs across wallets, rounds and legs', () => {
    const id = '7b0c2c86-32a5-4a51-9b0e-1f0d2b6c0f11';
    const nonce = forwardingNonce(id, 1, 'merchant');
    expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(forwardingNonce(id, 1, 'merchant')).toBe(nonce);
    const others = [
      forwardingNonce(id, 1, 'fee'),
      forwardingNonce(id, 2, 'merchant'),
      forwardingNonce('8b0c2c86-32a5-4a51-9b0e-1f0d2b6c0f11', 1, 'merchant'),
    ];
    expect(new Set([nonce, ...others]).size).toBe(4);
  });
});

test('retry delays double up to five minutes', () => {
  const delay = (n: number) => backoffDelayMs(n, 1000, MAX_FORWARDING_DELAY_MS);
  expect([1, 2, 3].map(delay)).toEqual([1000, 2000, 4000]);
  expect(delay(30)).toBe(5 * 60 * 1000);
});
