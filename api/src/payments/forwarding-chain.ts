// Chain side of forwarding: the relayer's transactions (signed at the chain's nonce, recorded,
// then broadcast, under one lock; forgotten when the node refuses them), receipts and their gas
// cost, and EIP-3009 authorization lookups.
import {
  type Address,
  type Hash,
  type Hex,
  keccak256,
  type PublicClient,
  parseAbiItem,
  type TransactionReceipt,
} from 'viem';
import { usdcAbi } from '../chain/usdc-abi.ts';
import {
  batchCallGas,
  batchRequest,
  hasMulticall3,
  legGasCost,
  rememberBatchCalls,
  simulateBatch,
} from './forwarding-batch.ts';
import {
  type ForwardingChain,
  MAX_GROUP_SENDS,
  type NonceLock,
  type SignedTx,
} from './forwarding-context.ts';
import {
  type LegRow,
  type LegTxSave,
  type MinedLeg,
  saveLegTransactions,
} from './forwarding-store.ts';
import { isAlreadyKnown, nodeRefused, relayerManagerOf } from './relayer.ts';

export { type ForwardingChain, NonceLock, type SignedTx } from './forwarding-context.ts';

/** Where a relayer transaction is recorded before broadcast, and forgotten if the node refuses it. */
export interface TxRecord {
  save(tx: SignedTx): Promise<void>;
  /** Only while the record still holds `tx` (compare and clear). */
  forget(tx: SignedTx): Promise<void>;
  /**
   * A leg's record: the legs one transaction carries are saved together, in one statement
   * (`saveLegTransactions`), instead of one `save` each.
   */
  leg?: LegTxSave;
}

/** Gas margin on estimates, in percent (estimates are exact for the state they ran on). */
const GAS_MARGIN_PERCENT = 20n;

/**
 * Signs a relayer transaction at the chain's `pending` nonce (see `RelayerManager.nextNonce`),
 * records it (Postgres), and only then broadcasts it, under the relayer's lock.
 * Sends asked for while the lock is held go together in the next group: one nonce read, one fee
 * read, consecutive nonces, every record saved before any of the group is broadcast. A send's gas
 * is estimated as soon as it is asked for, outside the lock (it does not depend on the nonce); a
 * send whose estimate fails is refused alone and takes no nonce. The group's `batch` sends (token
 * calls) go out as one transaction through Multicall3 (see forwarding-batch.ts), recorded on each
 * of them: they share its nonce, its fate at the node and its receipt. They are not estimated one
 * by one: the batch is run once on the pending state, under the lock, after the nonce is read, and
 * a call that would fail there is refused alone and left out (each call gets `batchCallGas`).
 * Note: when the node refuses a transaction (no ETH, nonce taken, underpriced: anything but
 * "already known"), its records are cleared, so no two transactions ever hold the same relayer
 * nonce and the next transaction takes the nonce this one did not use (the group's later sends go
 * again, at the next nonces); a broadcast that got no answer keeps its records (it may have
 * reached the node; it is sent again or replaced later).
 */
export function sendFromRelayer(
  chain: ForwardingChain,
  request: { to: Address; data?: Hex; value?: bigint },
  record: TxRecord,
  options: { batch?: boolean } = {},
): Promise<SignedTx> {
  return new Promise<SignedTx>((resolve, reject) => {
    // Note: a batch send is estimated in its group, where it is known whether it goes alone.
    const gas = options.batch === true ? null : estimateSend(chain, request);
    let queue = sendQueues.get(chain.relayerLock);
    if (!queue) {
      queue = [];
      sendQueues.set(chain.relayerLock, queue);
    }
    queue.push({ request, record, gas, batch: options.batch === true, resolve, reject });
    if (queue.length === 1) scheduleGroup(chain, queue);
  });
}

/** A send waiting for its group. */
interface QueuedSend {
  request: { to: Address; data?: Hex; value?: bigint };
  record: TxRecord;
  /** Null for a batch send until its group decides (see `sizeBatchSends`). */
  gas: Promise<bigint> | null;
  /** A token call that may share a transaction with others (`data` on the token). */
  batch: boolean;
  resolve: (tx: SignedTx) => void;
  reject: (error: unknown) => void;
}

/** One transaction of a group: a send alone, or the group's batch. */
interface GroupTx {
  sends: QueuedSend[];
  request: { to: Address; data?: Hex; value?: bigint };
  gas: bigint;
}

/** The sends waiting for the relayer's lock, by lock (one relayer, one queue). */
const sendQueues = new WeakMap<NonceLock, QueuedSend[]>();

/** The send's gas estimate (viem fills the relayer's request on the pending state). */
function estimateSend(
  chain: ForwardingChain,
  request: { to: Address; data?: Hex; value?: bigint },
): Promise<bigint> {
  const gas = chain.client.estimateGas({ account: chain.relayer, ...request });
  // Note: read when the group is formed; a failure then refuses this send alone.
  gas.catch(() => {});
  return gas;
}

/**
 * Gives the group's batch sends their gas. Two or more, with Multicall3 on the chain: the batch is
 * run once on the pending state; a call that fails there is refused with the token's reason and
 * the others get `batchCallGas` each. Else each is estimated as a transaction of its own.
 */
async function sizeBatchSends(chain: ForwardingChain, group: readonly QueuedSend[]) {
  const batched = group.filter((send) => send.batch && send.gas === null);
  if (batched.length === 0) return;
  if (batched.length < 2 || !(await hasMulticall3(chain))) {
    for (const send of batched) send.gas = estimateSend(chain, send.request);
    return;
  }
  const calls = batched.map((send) => send.request.data ?? '0x');
  const refusals = await simulateBatch(chain, calls);
  const first = calls.find((_, i) => refusals[i] === null);
  const gas = first ? batchCallGas(chain, first) : Promise.resolve(0n);
  for (const [i, send] of batched.entries()) {
    const reason = refusals[i] ?? null;
    send.gas = reason === null ? gas : refused(reason);
  }
}

function refused(reason: string): Promise<bigint> {
  const error = Promise.reject(new Error(`the token refuses the authorization: ${reason}`));
  error.catch(() => {});
  return error;
}

function scheduleGroup(chain: ForwardingChain, queue: QueuedSend[]): void {
  void chain.relayerLock.run(() => sendGroup(chain, queue));
}

/**
 * The group's transactions: each send alone, except the batch sends when there are two or more
 * and the chain has Multicall3: one transaction for all of them, in the place of the first.
 * Note: its gas is the sum of its calls' gas (`batchCallGas` each, at least what one costs as a
 * transaction of its own, 21,000 included, which pays for the batch's own work many times over;
 * what is not used is not paid).
 */
async function groupTransactions(
  chain: ForwardingChain,
  ready: readonly { send: QueuedSend; gas: bigint }[],
): Promise<GroupTx[]> {
  const batched = ready.filter((r) => r.send.batch);
  const together = batched.length > 1 && (await hasMulticall3(chain));
  const txs: GroupTx[] = [];
  for (const r of ready) {
    if (!together || !r.send.batch) {
      txs.push({ sends: [r.send], request: r.send.request, gas: r.gas });
    } else if (r === batched[0]) {
      txs.push({
        sends: batched.map((b) => b.send),
        request: batchRequest(
          chain.token,
          batched.map((b) => b.send.request.data ?? '0x'),
        ),
        gas: batched.reduce((sum, b) => sum + b.gas, 0n),
      });
    }
  }
  return txs;
}

/** Saves a transaction on every send it carries; if one save fails, the others are undone. */
async function saveAll(sends: readonly QueuedSend[], tx: SignedTx): Promise<void> {
  if (sends.length > 1)
    rememberBatchCalls(
      tx.hash,
      sends.map((send) => send.request.data ?? '0x'),
    );
  // Note: the legs' records of one database are one save (one statement, all or none).
  const saves: { sends: QueuedSend[]; save: () => Promise<void> }[] = [];
  const legs = new Map<LegTxSave['db'], QueuedSend[]>();
  for (const send of sends) {
    const leg = send.record.leg;
    if (!leg) saves.push({ sends: [send], save: () => send.record.save(tx) });
    else legs.set(leg.db, [...(legs.get(leg.db) ?? []), send]);
  }
  for (const [db, together] of legs)
    saves.push({
      sends: together,
      save: () =>
        saveLegTransactions(
          db,
          together.flatMap((send) => (send.record.leg ? [send.record.leg] : [])),
          tx,
        ),
    });
  const saved = await Promise.allSettled(saves.map((s) => s.save()));
  const failed = saved.find((s) => s.status === 'rejected');
  if (!failed) return;
  await forgetAll(
    saves.flatMap((s, i) => (saved[i]?.status === 'fulfilled' ? s.sends : [])),
    tx,
  );
  throw failed.reason;
}

async function forgetAll(sends: readonly QueuedSend[], tx: SignedTx): Promise<void> {
  await Promise.all(sends.map((send) => send.record.forget(tx).catch(() => {})));
}

async function sendGroup(chain: ForwardingChain, queue: QueuedSend[]): Promise<void> {
  const group = queue.splice(0, MAX_GROUP_SENDS);
  if (queue.length > 0) scheduleGroup(chain, queue);
  if (group.length === 0) return;
  try {
    // Note: the fees are read while the nonce is. The nonce is read before the batch is run: a
    // lost transaction it sends again is in the pending state the batch is then run on (and it is
    // awaited whatever the fees' answer, so nothing of it runs once the lock is let go).
    const feesRead = chain.client.estimateFeesPerGas();
    feesRead.catch(() => {});
    const manager = relayerManagerOf(chain);
    const first = manager
      ? await manager.nextNonce()
      : await chain.client.getTransactionCount({
          address: chain.relayer.address,
          blockTag: 'pending',
        });
    const fees = await feesRead;
    await sizeBatchSends(chain, group);
    const estimated = await Promise.all(
      group.map((send) =>
        (send.gas ?? estimateSend(chain, send.request)).then(
          (gas) => ({ send, gas }),
          (error) => {
            send.reject(error);
            return null;
          },
        ),
      ),
    );
    const ready = estimated.filter((e): e is { send: QueuedSend; gas: bigint } => e !== null);
    if (ready.length === 0) return;
    const txs = await groupTransactions(chain, ready);
    const signed = await Promise.all(
      txs.map(async (unit, i) => {
        const raw = await chain.relayer.signTransaction({
          type: 'eip1559',
          chainId: chain.chainId,
          ...unit.request,
          nonce: first + i,
          gas: (unit.gas * (100n + GAS_MARGIN_PERCENT)) / 100n,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        });
        return { unit, tx: { raw, hash: keccak256(raw), nonce: first + i } };
      }),
    );
    const saved = await Promise.allSettled(signed.map(({ unit, tx }) => saveAll(unit.sends, tx)));
    // Note: only the run of consecutive nonces that were all recorded goes out; what follows a
    // record that failed is forgotten again, so no nonce is left for a transaction never sent.
    const failed = saved.findIndex((s) => s.status === 'rejected');
    const sent = failed === -1 ? signed : signed.slice(0, failed);
    for (const [i, { unit, tx }] of signed.entries()) {
      if (i < sent.length) continue;
      const outcome = saved[i];
      if (outcome?.status === 'fulfilled') await forgetAll(unit.sends, tx);
      const reason =
        outcome?.status === 'rejected'
          ? outcome.reason
          : new Error('an earlier transaction of its group could not be recorded');
      for (const send of unit.sends) send.reject(reason);
    }
    // Note: in nonce order, one after the other: a transaction the node refuses must not leave
    // a hole with later nonces waiting behind it, so those after it are forgotten and go again
    // at the next nonces, in the next group.
    for (const [i, { unit, tx }] of sent.entries()) {
      try {
        await broadcast(chain.client, tx.raw);
      } catch (error) {
        for (const send of unit.sends) send.reject(error);
        if (!nodeRefused(error)) continue;
        await forgetAll(unit.sends, tx);
        const rest = sent.slice(i + 1);
        for (const later of rest) await forgetAll(later.unit.sends, later.tx);
        const idle = queue.length === 0;
        queue.unshift(...rest.flatMap((later) => later.unit.sends));
        if (idle && queue.length > 0) scheduleGroup(chain, queue);
        return;
      }
      manager?.noteSent(tx);
      for (const send of unit.sends) send.resolve(tx);
    }
  } catch (error) {
    // Note: a read of the chain failed before anything was recorded: every send is refused.
    for (const send of group) send.reject(error);
  }
}

/** Broadcasts a signed transaction; one the node already has is not an error. */
export async function broadcast(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (!isAlreadyKnown(error)) throw error;
  }
}

/** The receipt of `hash`, or null while it is not mined. */
export function receiptOf(client: PublicClient, hash: Hash): Promise<TransactionReceipt | null> {
  // Note: the rounds of one batch ask for its receipt at the same moments (a batch of 64 legs
  // has a receipt of over a hundred logs): one request answers all the askings under way.
  let asked = receiptsAsked.get(client);
  if (!asked) {
    asked = new Map();
    receiptsAsked.set(client, asked);
  }
  const underWay = asked.get(hash);
  if (underWay) return underWay;
  const answer = client
    .getTransactionReceipt({ hash })
    .catch((error) => {
      if (/could not be found|not found/i.test(String(error))) return null;
      throw error;
    })
    .finally(() => asked.delete(hash));
  asked.set(hash, answer);
  return answer;
}

const receiptsAsked = new WeakMap<PublicClient, Map<Hash, Promise<TransactionReceipt | null>>>();

/**
 * The chain's head block, read at most once per 50 ms for all who ask (the rounds waiting for
 * their depth ask every 100 ms each). Note: never ahead of the chain, so a round it tells is at
 * depth is.
 */
export function headBlock(client: PublicClient): Promise<bigint> {
  const last = headsRead.get(client);
  if (last && performance.now() - last.at < HEAD_REUSE_MS) return last.head;
  // Note: cacheTime 0: viem would otherwise answer a head up to 4 s old.
  const head = client.getBlockNumber({ cacheTime: 0 });
  headsRead.set(client, { at: performance.now(), head });
  head.catch(() => headsRead.delete(client));
  return head;
}

const HEAD_REUSE_MS = 50;
const headsRead = new WeakMap<PublicClient, { at: number; head: Promise<bigint> }>();

/** True while the node holds `hash` unmined. */
export async function isPending(client: PublicClient, hash: Hash): Promise<boolean> {
  const tx = await client.getTransaction({ hash }).catch(() => null);
  return tx !== null && tx.blockNumber === null;
}

/** What a mined transaction cost in wei: gasUsed × effectiveGasPrice, plus Base's L1 fee. */
export function gasCostOf(receipt: TransactionReceipt): bigint {
  const l1Fee = (receipt as { l1Fee?: bigint | null }).l1Fee ?? 0n;
  return receipt.gasUsed * receipt.effectiveGasPrice + l1Fee;
}

/** Whether the token has consumed `nonce` of `authorizer` (EIP-3009 `authorizationState`). */
export function isAuthorizationUsed(
  chain: ForwardingChain,
  authorizer: Address,
  nonce: Hex,
): Promise<boolean> {
  return chain.client.readContract({
    address: chain.token,
    abi: usdcAbi,
    functionName: 'authorizationState',
    args: [authorizer, nonce],
  });
}

const authorizationEvents = {
  used: parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)'),
  canceled: parseAbiItem(
    'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  ),
} as const;

/** Blocks searched back for a consumed authorization (about 5.5 hours of Base). */
const AUTHORIZATION_LOOKBACK = 100_000n;

/**
 * The transaction that consumed an authorization, found by its event: when a resubmission
 * replaced the leg's recorded hash and the earlier transaction was the one mined. `canceled`: the
 * transaction that cancelled it instead (`cancelAuthorization`).
 */
export async function findAuthorizationTx(
  chain: ForwardingChain,
  authorizer: Address,
  nonce: Hex,
  how: keyof typeof authorizationEvents = 'used',
): Promise<Hash | null> {
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const logs = await chain.client.getLogs({
    address: chain.token,
    event: authorizationEvents[how],
    args: { authorizer, nonce },
    fromBlock: head > AUTHORIZATION_LOOKBACK ? head - AUTHORIZATION_LOOKBACK : 0n,
    toBlock: head,
  });
  return logs[0]?.transactionHash ?? null;
}

/** The token balance of `owner` in base units. */
export function tokenBalance(chain: ForwardingChain, owner: Address): Promise<bigint> {
  return chain.client.readContract({
    address: chain.token,
    abi: usdcAbi,
    functionName: 'balanceOf',
    args: [owner],
  });
}

/** A leg with the receipt of the transaction that carried it, and its part of that one's cost. */
export async function minedLeg(
  client: PublicClient,
  leg: LegRow,
  receipt: TransactionReceipt,
): Promise<MinedLeg> {
  return {
    leg,
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    gasCostWei: await legGasCost(client, leg, receipt, gasCostOf(receipt)),
  };
}
