// A round whose legs are mined a block or two short of the depth is completed by the pass that
// sent them: at Base's pace the pass waits the few blocks, reads the receipts again and records
// the round, instead of leaving the wallet for a later pass to list, claim and read once more.
// At 2 confirmations a leg is always mined one block short, so before this the first pass never
// completed a round.
import { describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import { payUsdc } from '@store/stack/usdc';
import { createPublicClient, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { type DetectionCursor, runDetectionPass } from '../src/payments/detection.ts';
import { forwardWallet } from '../src/payments/forwarding.ts';
import { openRoundLegs } from '../src/payments/forwarding-store.ts';
import { forwardingContext } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { payableUniversalOrder, walletOf } from './support/payments.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 2;
/** The selector of the token's `balanceOf(address)`. */
const BALANCE_OF = '0x70a08231';
// Note: no worker: the test runs detection and forwarding itself, one pass at a time.
const t = useChainApi({ confirmations: CONFIRMATIONS, poolSize: 4 });

describe('a round mined short of its depth', () => {
  test('is completed by the pass that sent it, once, at depth', async () => {
    const config = loadWorkerConfig({ ...t.stack.env, CONFIRMATIONS: String(CONFIRMATIONS) });
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const order = await payableUniversalOrder(t.shopper, { total: '4.00', payout });
    await payUsdc(t.stack.env, 1, order.address, parseUnits('4.00', 6));
    let cursor: DetectionCursor = { lastTransferId: null };
    const settings = { chainId: config.chain.chainId, confirmations: CONFIRMATIONS };
    const received = await waitUntil(async () => {
      const pass = await runDetectionPass(t.workerDatabase.db, settings, cursor, new Date());
      cursor = pass.cursor;
      const wallet = await walletOf(t.workerDatabase.db, order.orderId);
      return wallet.status === 'received' && wallet;
    }, 'the payment at depth');
    const paidHead = await createPublicClient({
      transport: http(config.chain.rpcUrl),
    }).getBlockNumber({
      cacheTime: 0,
    });

    // Note: the token's balanceOf, counted as the node is asked (a round is planned from one read).
    const balanceReads: string[] = [];
    const base = forwardingContext(config, t.workerDatabase.db);
    const client = createPublicClient({
      transport: http(config.chain.rpcUrl, {
        onFetchRequest: async (request) => {
          const asked = [await request.clone().json()].flat() as {
            method: string;
            params?: [{ data?: string }];
          }[];
          for (const call of asked)
            if (call.method === 'eth_call' && call.params?.[0]?.data?.startsWith(BALANCE_OF))
              balanceReads.push(call.params[0].data);
        },
      }),
      cacheTime: 0,
    });
    const ctx = { ...base, chain: { ...base.chain, client } };
    try {
      expect(await forwardWallet(ctx, received)).toBe(true);
    } finally {
      await base.claims.close();
    }
    const wallet = await walletOf(t.workerDatabase.db, order.orderId);
    expect(wallet.forwardingStatus).toBe('completed');
    expect(wallet.forwardedAmountUsdc).toBe('4.000000');
    expect(await openRoundLegs(t.workerDatabase.db, wallet.id)).toEqual([]);
    expect(balanceReads).toHaveLength(1);
    // The chain: the payout holds its 98%, and the legs are CONFIRMATIONS deep.
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(
      splitFee(parseUnits('4.00', 6)).merchant,
    );
    const ledger = await chainLedger(t.stack.env, t.workerDatabase.db);
    expect(ledger.breaches).toEqual([]);
    expect(ledger.authorizationsUsedTwice).toEqual([]);
    // The chain as it was before the round: the payment's 4.00 in and still on the address. The
    // balance is read at that block, like the logs; read at the head it is 0 with no transfer out.
    const before = await chainLedger(t.stack.env, t.workerDatabase.db, { atBlock: paidHead });
    const then = before.wallets.find((w) => w.address === order.address.toLowerCase());
    expect(then).toMatchObject({ received: parseUnits('4.00', 6), toMerchant: 0n, toTreasury: 0n });
    expect(then?.balance).toBe(parseUnits('4.00', 6));
    expect(before.breaches.filter((breach) => breach.includes('≠'))).toEqual([]);
  }, 60_000);
});
