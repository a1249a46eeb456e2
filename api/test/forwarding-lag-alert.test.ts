// The health's forwarding-lag alert on the real chain with the worker running: an overpaid order
// already forwarded, whose excess is held for its payer, is not money waiting to be forwarded (the
// alert stays off however long the payer takes); a paid order that cannot be forwarded (the
// relayer out of ETH) turns it on, and it clears once the order is forwarded.
import { describe, expect, test } from 'bun:test';
import { payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { type Address, createPublicClient, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApp } from '../src/app.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { refunds } from '../src/db/schema.ts';
import type { Health } from '../src/modules/health/service.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient } from './support/client.ts';
import { payableUniversalOrder, waitForForwarded } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const LAG_ALERT_S = 2;
const workerLog: string[] = [];
const t = useChainApi({
  confirmations: 2,
  poolSize: 4,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '2',
        FORWARDING_RETRY_BASE_MS: '100',
        FORWARDING_LAG_ALERT_S: String(LAG_ALERT_S),
      }),
      database.db,
      { log: (line) => workerLog.push(line) },
    ),
});

async function health(): Promise<Health> {
  const chain = createPublicClient({ transport: http(t.stack.env.RPC_URL) });
  const app = createApp({
    db: t.database.db,
    config: { ...t.config, forwardingLagAlertS: LAG_ALERT_S },
    chain,
  });
  return (await apiClient(app).get('/api/health')).body as Health;
}

const lagAlerts = (body: Health) => body.alerts.filter((a) => /oldest paid order/.test(a));
const payout = () => privateKeyToAccount(generatePrivateKey()).address as Address;

describe('the forwarding-lag alert', () => {
  test('stays off for an excess held for its payer, and turns on for a real stall', async () => {
    // An overpaid order: its total is forwarded, the excess waits for the payer's address.
    const overpaid = await payableUniversalOrder(t.shopper, { total: '4.00', payout: payout() });
    await payUsdc(t.stack.env, 1, overpaid.address, parseUnits('4.60', 6));
    await waitForForwarded(t.database.db, overpaid.orderId, 30_000);
    const [held] = await t.database.db
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, overpaid.orderId));
    expect(held?.status).toBe('awaiting_address');
    await Bun.sleep((LAG_ALERT_S + 1) * 1000);
    const calm = await health();
    expect(calm.settlement.relayer.oldestForwardingLagSeconds).toBeNull();
    expect(lagAlerts(calm)).toEqual([]);
    expect(workerLog.filter((l) => /ALERT the oldest paid order/.test(l))).toEqual([]);

    // A real stall: the relayer cannot pay for gas, so a paid order waits.
    const client = createPublicClient({ transport: http(t.stack.env.RPC_URL) });
    const relayer = t.stack.env.RELAYER_ADDRESS as Address;
    const funded = await client.getBalance({ address: relayer });
    const setBalance = (wei: bigint) =>
      client.request({
        method: 'anvil_setBalance' as 'eth_chainId',
        params: [relayer, `0x${wei.toString(16)}`] as never,
      });
    await setBalance(0n);
    try {
      const stalled = await payableUniversalOrder(t.shopper, { total: '3.00', payout: payout() });
      await payUsdc(t.stack.env, 2, stalled.address, parseUnits('3.00', 6));
      const alerting = await waitUntil(
        async () => {
          const body = await health();
          return lagAlerts(body).length > 0 && body;
        },
        'the lag alert',
        20_000,
      );
      expect(alerting.settlement.relayer.oldestForwardingLagSeconds).toBeGreaterThan(LAG_ALERT_S);
      expect(lagAlerts(alerting)[0]).toMatch(
        new RegExp(
          `^the oldest paid order has waited \\d+ s to be forwarded \\(alert above ${LAG_ALERT_S} s\\)$`,
        ),
      );
      await setBalance(funded);
      await waitForForwarded(t.database.db, stalled.orderId, 30_000);
    } finally {
      await setBalance(funded);
    }
    const cleared = await health();
    expect(cleared.settlement.relayer.oldestForwardingLagSeconds).toBeNull();
    expect(lagAlerts(cleared)).toEqual([]);
  }, 120_000);
});
