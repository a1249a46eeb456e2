// A reorg deeper than the depth is seen at the next block, not at the next full reconciliation:
// on the real chain (0.2 s blocks) with the worker at its default reconciliation period (60 s), a
// forwarded payment that a reorg takes away together with its forwarding reads `reversed` in the
// status API, the order (the payment page), the webhook and /api/health within 2 s, and health
// counts no loss: nothing left the deposit address on the new chain.
// (One leg left on the chain: reorg-loss-leg-on-chain.test.ts.)
import { describe, expect, test } from 'bun:test';
import { payUsdc } from '@store/stack/usdc';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { payableUniversalOrder, waitForForwarded } from './support/payments.ts';
import { SEEN_WITHIN_MS, usdc, useReorgReversal } from './support/reorg-reversal.ts';
import { balancesOf } from './support/settlement.ts';

const { t, hooks, health, reorgFrom, waitForReversedEverywhere } = useReorgReversal();

describe('a reorg deeper than the depth', () => {
  test('taking a forwarded payment and its forwarding: reversed everywhere within 2 s, no loss', async () => {
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '5.00',
      payout,
      webhookUrl: hooks.url,
    });
    const paid = await payUsdc(t.stack.env, 6, address, usdc('5.00'));
    await waitForForwarded(t.database.db, orderId, 30_000);
    expect((await health()).settlement.reversals).toEqual({ open: 0, lossUsdc: '0.000000' });
    expect((await balancesOf(t.stack.env, payout)).usdc).toBeGreaterThan(0n);

    const reorgedAt = await reorgFrom(paid.blockNumber, paid.hash);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(0n);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(0n);

    const seen = await waitForReversedEverywhere(orderId, reorgedAt);
    console.log(`reversal seen everywhere ${Math.round(seen.ms)} ms after the reorg`);
    expect(seen.ms).toBeLessThan(SEEN_WITHIN_MS);
    // Nothing left the address on the new chain: nothing was lost.
    expect(seen.health.settlement.reversals).toEqual({ open: 1, lossUsdc: '0.000000' });
    expect(seen.health.alerts.join('\n')).not.toMatch(/platform's loss/);
  }, 120_000);
});
