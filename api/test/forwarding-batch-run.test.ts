// The legs handed to the relayer together are sized by one run of their batch on the pending
// state, under the relayer's lock, instead of one gas estimate each: at 50 payments a second the
// per-leg estimates (viem fills a local account's request through eth_fillTransaction) were about
// half of the local chain's CPU. A call that fails in that run (its authorization already used by
// a transaction in the pool) is refused alone and takes no nonce; the others go out in one
// transaction.
import { afterAll, describe, expect, test } from 'bun:test';
import { chainLedger } from '@store/stack/chain-ledger';
import { payUsdc } from '@store/stack/usdc';
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { signTransferAuthorization, transferWithAuthorizationData } from '../src/chain/usdc-abi.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { type DetectionCursor, runDetectionPass } from '../src/payments/detection.ts';
import { forwardWallet } from '../src/payments/forwarding.ts';
import { type SignedTx, sendFromRelayer } from '../src/payments/forwarding-chain.ts';
import { forwardingContext } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { payableUniversalOrder, walletOf } from './support/payments.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 2;
/** The selector of Multicall3's `aggregate3`. */
const AGGREGATE3 = '0x82ad56cb';
const t = useChainApi({ confirmations: CONFIRMATIONS, poolSize: 4 });
const config = () => loadWorkerConfig({ ...t.stack.env, CONFIRMATIONS: String(CONFIRMATIONS) });

/** A client that notes each method it asks the node, with the block tag of each `eth_call`. */
function countingClient(rpcUrl: string, asked: string[]): PublicClient {
  return createPublicClient({
    chain: foundry,
    transport: http(rpcUrl, {
      onFetchRequest: async (request) => {
        const calls = [await request.clone().json()].flat() as {
          method: string;
          params?: [{ data?: string; input?: string }, string?];
        }[];
        for (const call of calls) {
          const data = call.params?.[0]?.data ?? call.params?.[0]?.input ?? '';
          asked.push(
            call.method === 'eth_call' && data.startsWith(AGGREGATE3)
              ? `batch run on ${call.params?.[1]}`
              : call.method,
          );
        }
      },
    }),
    cacheTime: 0,
  }) as PublicClient;
}

describe("the relayer's batch", () => {
  test('two rounds forward with one run of their batch each, and no gas estimate per leg', async () => {
    const worker = config();
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const orders = [
      await payableUniversalOrder(t.shopper, { total: '2.00', payout }),
      await payableUniversalOrder(t.shopper, { total: '3.00', payout }),
    ];
    await payUsdc(t.stack.env, 1, orders[0]?.address as Address, parseUnits('2.00', 6));
    await payUsdc(t.stack.env, 2, orders[1]?.address as Address, parseUnits('3.00', 6));
    let cursor: DetectionCursor = { lastTransferId: null };
    const settings = { chainId: worker.chain.chainId, confirmations: CONFIRMATIONS };
    const received = await waitUntil(async () => {
      const pass = await runDetectionPass(t.workerDatabase.db, settings, cursor, new Date());
      cursor = pass.cursor;
      const wallets = await Promise.all(
        orders.map((o) => walletOf(t.workerDatabase.db, o.orderId)),
      );
      return wallets.every((w) => w.status === 'received') && wallets;
    }, 'both payments at depth');

    const asked: string[] = [];
    const base = forwardingContext(worker, t.workerDatabase.db);
    const ctx = {
      ...base,
      chain: { ...base.chain, client: countingClient(worker.chain.rpcUrl, asked) },
    };
    try {
      for (const wallet of received) expect(await forwardWallet(ctx, wallet)).toBe(true);
    } finally {
      await base.claims.close();
    }
    // Each round's two legs: one run of the batch on the pending state, one transaction. The one
    // estimate is the relayer's first batch call measured as a transaction of its own (once).
    expect(asked.filter((m) => m === 'batch run on pending')).toHaveLength(2);
    expect(asked.filter((m) => m === 'eth_fillTransaction')).toEqual([]);
    expect(asked.filter((m) => m === 'eth_estimateGas')).toHaveLength(1);
    expect(asked.filter((m) => m === 'eth_sendRawTransaction')).toHaveLength(2);
    for (const order of orders) {
      const wallet = await walletOf(t.workerDatabase.db, order.orderId);
      expect(wallet.forwardingStatus).toBe('completed');
    }
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(parseUnits('4.90', 6));
    const ledger = await chainLedger(t.stack.env, t.workerDatabase.db);
    expect(ledger.breaches).toEqual([]);
    expect(ledger.authorizationsUsedTwice).toEqual([]);
  }, 60_000);

  describe('with blocks held', () => {
    const client = () =>
      createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL), cacheTime: 0 });
    const rpc = (method: string, params: unknown[] = []) =>
      client().request({ method: method as 'eth_chainId', params: params as never });
    afterAll(async () => {
      // Note: anvil's interval mining cannot go below 1 s once stopped.
      await rpc('evm_setIntervalMining', [1]).catch(() => {});
    });

    test('a call whose authorization a pooled transaction already uses is refused alone and takes no nonce; the others go in one transaction', async () => {
      const base = forwardingContext(config(), t.workerDatabase.db);
      await base.claims.close();
      const { chain } = base;
      const node = client();
      const token = chain.token;
      const owner = privateKeyToAccount(generatePrivateKey());
      await payUsdc(t.stack.env, 3, owner.address, parseUnits('3.00', 6));
      const payees = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()).address);
      const calls = await Promise.all(
        payees.map(async (to, i) => {
          const nonce = `0x${(i + 1).toString(16).padStart(64, '0')}` as Hex;
          const message = {
            from: owner.address,
            to,
            value: parseUnits('1.00', 6),
            validAfter: 0n,
            validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
            nonce,
          };
          const signature = await signTransferAuthorization(owner, chain.chainId, token, message);
          return transferWithAuthorizationData(message, signature);
        }),
      );

      await rpc('evm_setIntervalMining', [0]);
      // Anyone may submit a signed authorization: a stranger's transaction with the second call
      // waits in the pool, unmined.
      const stranger = privateKeyToAccount(generatePrivateKey());
      await rpc('anvil_setBalance', [stranger.address, `0x${(10n ** 18n).toString(16)}`]);
      const fees = await node.estimateFeesPerGas();
      const ahead = await node.sendRawTransaction({
        serializedTransaction: await stranger.signTransaction({
          type: 'eip1559',
          chainId: chain.chainId,
          to: token,
          data: calls[1] as Hex,
          gas: 200_000n,
          nonce: 0,
          ...fees,
        }),
      });
      const nonceBefore = await node.getTransactionCount({
        address: chain.relayer.address,
        blockTag: 'pending',
      });
      const records = new Map<number, SignedTx>();
      const results = await Promise.allSettled(
        calls.map((data, i) =>
          sendFromRelayer(
            chain,
            { to: token, data },
            {
              save: async (tx) => {
                records.set(i, tx);
              },
              forget: async () => {
                records.delete(i);
              },
            },
            { batch: true },
          ),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const refusal = results[1]?.status === 'rejected' ? String(results[1].reason) : '';
      expect(refusal).toMatch(/authorization is used/);
      expect(records.has(1)).toBe(false);
      const sent = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      // One transaction carries the two others, at the relayer's next nonce.
      expect(sent[0]?.hash).toBe(sent[1]?.hash as Hex);
      expect(sent[0]?.nonce).toBe(nonceBefore);

      await rpc('evm_mine');
      const batch = await node.getTransactionReceipt({ hash: sent[0]?.hash as Hex });
      const front = await node.getTransactionReceipt({ hash: ahead });
      expect(batch.status).toBe('success');
      expect(front.status).toBe('success');
      expect(await node.getTransactionCount({ address: chain.relayer.address })).toBe(
        nonceBefore + 1,
      );
      // Each payee got its 1.00 once; the owner holds nothing more.
      for (const payee of payees)
        expect((await balancesOf(t.stack.env, payee)).usdc).toBe(parseUnits('1.00', 6));
      expect((await balancesOf(t.stack.env, owner.address)).usdc).toBe(0n);
    }, 60_000);
  });
});
