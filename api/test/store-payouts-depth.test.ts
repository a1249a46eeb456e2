// A payout counts once its forwarding leg is confirmed at depth, not when it is first mined: with
// 25 confirmations (5 s of 200 ms blocks) the merchant's leg is mined and indexed, and the
// accounting export already lists it, while the payouts page shows nothing; at depth it shows it.
import { describe, expect, test } from 'bun:test';
import { payUsdc } from '@store/stack/usdc';
import { sql } from 'drizzle-orm';
import { type Address, parseUnits } from 'viem';
import { loadWorkerConfig } from '../src/config.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { orderOneMug } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 25;
const t = useChainApi({
  confirmations: CONFIRMATIONS,
  poolSize: 4,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: String(CONFIRMATIONS),
        FORWARDING_RETRY_BASE_MS: '100',
      }),
      database.db,
    ),
});

describe('the payouts page', () => {
  test('counts a forwarding leg once it is confirmed at depth, not when it is mined', async () => {
    const owner = await newMerchant(t.app, 'depth');
    const store = (await owner.api.post('/api/stores', storeForm())).body as { id: string };
    const { orderId } = await orderOneMug(owner, t.shopper, store.id);
    const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    await payUsdc(
      t.stack.env,
      1,
      wallet.body.paymentWallet.address as Address,
      parseUnits('10.80', 6),
    );
    // The merchant's leg mined and indexed (its block time known), below the depth.
    const leg = await waitUntil(
      async () => {
        const [row] = await t.database.db.execute<{ status: string; mined_at: string | null }>(sql`
          select s.status, s.mined_at::text as mined_at from analytics.settlements s
          where s.order_id = ${orderId} and s.leg = 'merchant'`);
        return row?.status === 'mined' && row.mined_at !== null && row;
      },
      'the merchant leg to be mined and indexed',
      60_000,
    );
    expect(leg.status).toBe('mined');
    const early = await owner.api.get(`/api/stores/${store.id}/payouts`);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({
      days: [],
      totals: { payouts: 0, receivedUsdc: '0.000000' },
    });
    // The accounting export lists every leg it sees on the chain, confirmed or not.
    const movements = (await owner.api.get(`/api/stores/${store.id}/money-movements`)).body as {
      type: string;
    }[];
    expect(movements.some((m) => m.type === 'merchant')).toBe(true);

    // At depth the payout is on the page.
    const late = await waitUntil(
      async () => {
        const { body } = await owner.api.get(`/api/stores/${store.id}/payouts`);
        return body.totals.payouts === 1 && body;
      },
      'the payout at depth',
      60_000,
    );
    expect(late.totals).toMatchObject({ receivedUsdc: '10.584000', feesUsdc: '0.216000' });
  }, 120_000);
});
