// A reorg deeper than the depth that replaces a payment by a smaller transfer and mines the
// payment's forwarding legs again after it (as a node may put them back in its pool): the
// merchant's leg reverts (the address is short), the fee leg succeeds. On the real chain (0.2 s
// blocks), with the worker at its default reconciliation period: the order reads `reversed` in
// the status API, the order, the webhook and /api/health within 2 s, and health's loss is the fee
// leg: what really left the address beyond what it holds at the depth.
import { describe, expect, test } from 'bun:test';
import { formatUsdcFull, splitFee } from '@store/shared';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { encodeFunctionData, type Hash, type Hex, parseTransaction } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { signedTransactionOf } from '../src/payments/forwarding-store.ts';
import { payableUniversalOrder, paymentStatus, walletOf } from './support/payments.ts';
import { type ReorgTx, SEEN_WITHIN_MS, usdc, useReorgReversal } from './support/reorg-reversal.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';

// Note: 20 blocks, so that the smaller transfer stays below the depth for the whole measurement
// (the reorg comes before the legs reach the depth, within the blocks the indexer can revert).
const { t, hooks, rpc, health, reorgFrom, legsOf, waitForReversedEverywhere } =
  useReorgReversal(20);

describe('a reorg deeper than the depth', () => {
  test('leaving one leg of its forwarding on the chain: reversed within 2 s, the loss is that leg', async () => {
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '6.00',
      payout,
      webhookUrl: hooks.url,
    });
    const paid = await payUsdc(t.stack.env, 7, address, usdc('6.00'));
    // Its legs mined (still below the depth, so the reorg stays within the 30 blocks the local
    // indexer keeps unfinalized).
    const wallet = await waitUntil(
      async () => {
        const w = await walletOf(t.database.db, orderId);
        const legs = await legsOf(w.id);
        if (legs.length !== 2 || legs.some((l) => !l.txHash)) return false;
        const mined = await Promise.all(
          legs.map((l) =>
            rpc()
              .getTransactionReceipt({ hash: l.txHash as Hash })
              .catch(() => null),
          ),
        );
        return mined.every((r) => r?.status === 'success') && w;
      },
      'the legs mined',
      30_000,
    );
    expect((await health()).settlement.reversals).toEqual({ open: 0, lossUsdc: '0.000000' });
    const { fee } = splitFee(usdc('6.00'));
    // The legs' signed transactions, in the relayer's nonce order.
    const signed = (
      await Promise.all(
        (
          await legsOf(wallet.id)
        ).map(async (leg) => (await signedTransactionOf(t.database.db, leg.txHash)) as Hex),
      )
    ).sort((a, b) => (parseTransaction(a).nonce ?? 0) - (parseTransaction(b).nonce ?? 0));

    // The new chain: the payment replaced by a smaller transfer from another account, enough for
    // the fee leg alone, two blocks below the head; both legs in the head block after it.
    const shortfall = encodeFunctionData({
      abi: usdcAbi,
      functionName: 'transfer',
      args: [address, fee],
    });
    const other = localAccount(8).address;
    const reorgedAt = await reorgFrom(paid.blockNumber, paid.hash, (depth) => [
      [{ from: other, to: t.stack.env.USDC_ADDRESS as string, data: shortfall }, depth - 2],
      ...signed.map((raw): ReorgTx => [raw, depth - 1]),
    ]);
    // The fee leg took the shortfall out again; the merchant got nothing.
    const balances = await Promise.all([
      balancesOf(t.stack.env, payout),
      balancesOf(t.stack.env, address),
    ]);
    expect(balances.map((b) => b.usdc)).toEqual([0n, 0n]);

    // The fee leg really left the address, and nothing backs it at the depth: that is the loss.
    const loss = formatUsdcFull(fee);
    const seen = await waitForReversedEverywhere(
      orderId,
      reorgedAt,
      (body) => body.settlement.reversals.lossUsdc === loss,
    );
    console.log(`reversal and loss seen everywhere ${Math.round(seen.ms)} ms after the reorg`);
    expect(seen.ms).toBeLessThan(SEEN_WITHIN_MS);
    expect(seen.health.settlement.reversals).toEqual({ open: 1, lossUsdc: loss });
    expect(seen.health.alerts.join('\n')).toContain(`${loss} USDC had already been forwarded`);
    expect((await paymentStatus(t.shopper, orderId)).status).toBe('reversed');
  }, 120_000);
});
