// A reorg deeper than the depth that takes away a payment AND its completed forwarding, on the real
// chain with two workers: the legs are never sent again into an empty address (no reverted
// transaction, none left `sent`), their authorizations are cancelled on chain and recorded, the
// wallet's forwarding says so; when the same payment is mined again, a new round forwards it once.
import { afterAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import { localAccount } from '@store/stack/usdc';
import { asc, eq } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  multicall3Abi,
  parseAbi,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { MULTICALL3_ADDRESS } from '../src/chain/multicall3.ts';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { forwardingTransfers, paymentEvents } from '../src/db/schema.ts';
import { signedTransactionOf } from '../src/payments/forwarding-store.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { payableUniversalOrder, waitForForwarded, walletOf } from './support/payments.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 10;
const usdc = (amount: string) => parseUnits(amount, 6);

const workerLogs: string[] = [];
const t = useChainApi({
  confirmations: CONFIRMATIONS,
  poolSize: 8,
  worker: ({ stack, database }) => {
    const config = loadWorkerConfig({
      ...stack.env,
      CONFIRMATIONS: String(CONFIRMATIONS),
      FORWARDING_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '100',
      DETECTION_RECONCILE_MS: '500',
    });
    // Two workers on two pools, as two replicas would run.
    const second = createDatabase(stack.databaseUrls.worker, { max: 6 });
    const workers = [database.db, second.db].map((db, i) =>
      startSettlement(config, db, { log: (line) => workerLogs.push(`[${i}] ${line}`) }),
    );
    return {
      stop: async () => {
        await Promise.all(workers.map((w) => w.stop()));
        await second.close();
      },
    };
  },
});
afterAll(() => {
  if (process.env.SHOW_WORKER_LOGS) console.log(workerLogs.join('\n'));
});

const rpc = () => createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });

/** The shopper's USDC transfer, signed once so that the very same transaction can be mined again. */
async function signedPayment(from: number, to: Address, amount: bigint): Promise<Hex> {
  const wallet = createWalletClient({
    account: localAccount(from),
    chain: foundry,
    transport: http(t.stack.env.RPC_URL),
  });
  const request = await wallet.prepareTransactionRequest({
    to: t.stack.env.USDC_ADDRESS as Address,
    data: encodeFunctionData({ abi: usdcAbi, functionName: 'transfer', args: [to, amount] }),
  });
  return wallet.signTransaction(request);
}

/** Broadcasts a signed transaction and waits for its receipt, whatever its outcome. */
async function broadcastAndWait(raw: Hex) {
  const hash = await rpc().sendRawTransaction({ serializedTransaction: raw });
  return rpc().waitForTransactionReceipt({ hash, pollingInterval: 10 });
}

async function mine(raw: Hex) {
  const receipt = await broadcastAndWait(raw);
  expect(receipt.status).toBe('success');
  return receipt;
}

const tokenCalls = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
]);

/** The relayer's token calls for `deposit` mined from block `from` on, with their outcome. */
async function relayerCallsFor(deposit: Address, from: bigint) {
  const client = rpc();
  const relayer = (t.stack.env.RELAYER_ADDRESS ?? '').toLowerCase();
  const head = await client.getBlockNumber();
  const calls: { hash: Hash; fn: string; nonce: Hex; status: string }[] = [];
  for (let n = from; n <= head; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== relayer || !tx.input || tx.input === '0x') continue;
      // Note: a batch (Multicall3's aggregate3) carries several token calls, each of which may
      // fail alone: a call's outcome is whether the token used (or cancelled) its authorization.
      const batch = tx.to?.toLowerCase() === MULTICALL3_ADDRESS.toLowerCase();
      const inputs = batch
        ? (
            decodeFunctionData({ abi: multicall3Abi, data: tx.input }).args[0] as readonly {
              callData: Hex;
            }[]
          ).map((c) => c.callData)
        : [tx.input];
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      for (const input of inputs) {
        const call = decodeFunctionData({ abi: tokenCalls, data: input });
        if ((call.args[0] as string).toLowerCase() !== deposit.toLowerCase()) continue;
        const nonce = (
          call.functionName === 'cancelAuthorization' ? call.args[1] : call.args[5]
        ) as Hex;
        const used = receipt.logs.some(
          (log) => log.topics[2]?.toLowerCase() === nonce.toLowerCase(),
        );
        const status = batch ? (used ? 'success' : 'reverted') : receipt.status;
        calls.push({ hash: tx.hash, fn: call.functionName, nonce, status });
      }
    }
  }
  return calls;
}

/**
 * Replaces every block from `first` on with empty ones (anvil drops their transactions), until
 * `gone` is no longer on the chain. Note: blocks keep coming while the head is read, so one
 * `anvil_reorg` may fall a block or two short: it is asked again from the new head.
 */
async function reorgFrom(first: bigint, gone: Hash) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const head = await rpc().getBlockNumber({ cacheTime: 0 });
    await rpc().request({
      method: 'anvil_reorg' as never,
      params: [Number(head - first + 1n), []] as never,
    });
    const still = await rpc()
      .getTransactionReceipt({ hash: gone })
      .catch(() => null);
    if (!still) return;
  }
  throw new Error(`${gone} is still on the chain after the reorg`);
}

const legsOf = (walletId: string) =>
  t.database.db
    .select()
    .from(forwardingTransfers)
    .where(eq(forwardingTransfers.walletId, walletId))
    .orderBy(asc(forwardingTransfers.round), asc(forwardingTransfers.leg));

describe('a reorg deeper than the depth takes a payment and its forwarding away', () => {
  test('the legs are cancelled, never sent into an empty address; the payment mined again is forwarded once', async () => {
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '6.00',
      payout,
      storeName: 'Reorg Shop',
    });
    const payment = await signedPayment(6, address, usdc('6.00'));
    const { blockNumber: paidAt, transactionHash: paymentHash } = await mine(payment);
    const wallet = await waitForForwarded(t.database.db, orderId, 30_000);
    const firstRound = await legsOf(wallet.id);
    expect(firstRound.map((l) => l.status)).toEqual(['confirmed', 'confirmed']);

    // The payment's block and everything after it are replaced by empty blocks.
    const base = paidAt - 1n;
    await reorgFrom(paidAt, paymentHash);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(0n);

    // The payment is gone: the order is reversed and its legs are cancelled, not sent again.
    const settled = await waitUntil(
      async () => {
        const w = await walletOf(t.database.db, orderId);
        const legs = await legsOf(wallet.id);
        return (
          w.status === 'reversed' &&
          w.forwardingStatus === 'canceled' &&
          legs.every((l) => l.status === 'canceled') && { w, legs }
        );
      },
      'the legs of the reversed payment cancelled',
      45_000,
    ).catch((error) => {
      console.log(workerLogs.slice(-40).join('\n'));
      throw error;
    });
    expect(settled.w.forwardedAmountUsdc).toBe('0.000000');
    expect(settled.w.forwardingError).toMatch(/left the chain/);
    // Each cancellation is on chain (the token refuses the authorization from now on).
    for (const leg of settled.legs) {
      expect(leg.txHash).toBeTruthy();
      expect(leg.confirmedAt).toBeNull();
      const receipt = await rpc().getTransactionReceipt({ hash: leg.txHash as Hash });
      expect(receipt.status).toBe('success');
      const used = await rpc().readContract({
        address: t.stack.env.USDC_ADDRESS as Address,
        abi: usdcAbi,
        functionName: 'authorizationState',
        args: [address, leg.authorizationNonce as Hex],
      });
      expect(used).toBe(true);
    }
    // Nothing was sent into the empty address: no reverted transaction, one cancel per leg.
    await Bun.sleep(1500);
    const afterReorg = await relayerCallsFor(address, base + 1n);
    expect(afterReorg.filter((c) => c.status !== 'success')).toEqual([]);
    expect(afterReorg.filter((c) => c.fn === 'transferWithAuthorization')).toEqual([]);
    expect(afterReorg.filter((c) => c.fn === 'cancelAuthorization')).toHaveLength(2);
    const events = await t.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.walletId, wallet.id));
    expect(
      events.filter((e) => (e.details as { legCanceled?: boolean })?.legCanceled),
    ).toHaveLength(2);

    // The same payment is mined again: forwarding resumes with a new round, paid once.
    const again = await mine(payment);
    const done = await waitForForwarded(t.database.db, orderId, 45_000).catch((error) => {
      console.log(workerLogs.slice(-40).join('\n'));
      throw error;
    });
    expect(done.forwardedAmountUsdc).toBe('6.000000');
    const legs = await legsOf(wallet.id);
    expect(legs.map((l) => `${l.round} ${l.leg} ${l.status}`)).toEqual([
      '1 fee canceled',
      '1 merchant canceled',
      '2 fee confirmed',
      '2 merchant confirmed',
    ]);
    const { merchant } = splitFee(usdc('6.00'));
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(merchant);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(0n);
    const calls = await relayerCallsFor(address, again.blockNumber);
    expect(calls.filter((c) => c.status !== 'success')).toEqual([]);
    expect(calls.filter((c) => c.fn === 'transferWithAuthorization')).toHaveLength(2);
    const ledger = await chainLedger(t.stack.env, t.database.db);
    expect(ledger.breaches).toEqual([]);
    expect(ledger.authorizationsUsedTwice).toEqual([]);
    const row = ledger.wallets.find((w) => w.address === address.toLowerCase());
    expect(row).toMatchObject({ received: usdc('6.00'), balance: 0n, toMerchant: merchant });
  }, 150_000);
});

describe('a node that mines the reorged legs again into the empty address', () => {
  test('their reverted transactions are recorded with their gas, then the legs are cancelled', async () => {
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '2.50',
      payout,
      storeName: 'Reorg Shop',
    });
    const paid = await mine(await signedPayment(7, address, usdc('2.50')));
    const paidAt = paid.blockNumber;
    const wallet = await waitForForwarded(t.database.db, orderId, 30_000);
    const sent = await legsOf(wallet.id);
    await reorgFrom(paidAt, paid.transactionHash);
    // As a real node may, it puts the removed legs back in its pool (the payment stays away: say
    // its sender replaced it), and they are mined reverted: the address is empty.
    // Note: a round's legs share one relayer transaction (a batch): sent once. Its calls fail
    // (a reverted transaction, or a batch whose every call failed): the token emits nothing.
    const raws = await Promise.all(
      [...new Set(sent.map((leg) => leg.txHash))].map(
        async (hash) => (await signedTransactionOf(t.database.db, hash)) as Hex,
      ),
    );
    const reverted = await Promise.all(raws.map((raw) => broadcastAndWait(raw)));
    for (const receipt of reverted) expect(receipt.logs).toEqual([]);
    const settled = await waitUntil(
      async () => {
        const w = await walletOf(t.database.db, orderId);
        const legs = await legsOf(wallet.id);
        return (
          w.forwardingStatus === 'canceled' &&
          legs.every((l) => l.status === 'canceled') && { w, legs }
        );
      },
      'the legs of the reversed payment cancelled',
      45_000,
    ).catch((error) => {
      console.log(workerLogs.slice(-40).join('\n'));
      throw error;
    });
    // Each reverted transaction is on the record with its gas; none is left `sent`.
    const events = await t.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.walletId, wallet.id));
    const recorded = events
      .map((e) => e.details as { legReverted?: boolean; txHash?: string; gasCostWei?: string })
      .filter((d) => d.legReverted);
    expect(recorded.map((d) => d.txHash).sort()).toEqual(sent.map((l) => l.txHash ?? '').sort());
    for (const d of recorded) expect(BigInt(d.gasCostWei ?? 0)).toBeGreaterThan(0n);
    expect(Number(settled.w.actualGasUsed)).toBeGreaterThan(Number(wallet.actualGasUsed));
    const calls = await relayerCallsFor(address, paidAt);
    expect(calls.filter((c) => c.fn === 'transferWithAuthorization')).toHaveLength(2);
    expect(
      calls.filter((c) => c.fn === 'cancelAuthorization' && c.status === 'success'),
    ).toHaveLength(2);
    const ledger = await chainLedger(t.stack.env, t.database.db);
    expect(ledger.breaches).toEqual([]);
  }, 120_000);
});
