// Payments at a steady rate (the throughput benchmark and its short test): `rate` USDC transfers a
// second to given deposit addresses from funded accounts anvil sends for (impersonated, so the
// sender costs no signing), and what the chain says happened to each: the block it arrived in,
// the block at which 98% of it reached its payout address, and the transactions (and their gas)
// that moved it out.
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseAbi,
  parseAbiItem,
} from 'viem';
import { foundry } from 'viem/chains';
import { SENDERS } from './background-traffic.ts';

const erc20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
// Note: an explicit gas limit skips estimateGas; a transfer to a fresh address uses about 62k.
const GAS = numberToHex(70_000n);

/**
 * The payers: the background senders' groups 1..3 (48 accounts `prepareSenders` funded with ETH
 * and 10 million USDC each, impersonated); the background traffic uses group 0.
 */
export const PAYERS: readonly Address[] = SENDERS.slice(16);

type RpcCall = { method: string; params: unknown[] };

/** JSON-RPC batch over HTTP (one request for many calls); throws on the first error. */
export function rpcBatch(rpcUrl: string) {
  let id = 0;
  return async (calls: RpcCall[]): Promise<unknown[]> => {
    if (calls.length === 0) return [];
    const body = calls.map((c) => ({ jsonrpc: '2.0', id: ++id, ...c }));
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answers = (await response.json()) as {
      id: number;
      result?: unknown;
      error?: { message: string };
    }[];
    answers.sort((a, b) => a.id - b.id);
    const failed = answers.find((a) => a.error);
    if (failed?.error) throw new Error(`rpc: ${failed.error.message}`);
    return answers.map((a) => a.result);
  };
}

/** One payment sent by the stream. */
export interface StreamPayment {
  to: Address;
  hash: Hash;
  /** performance.now() when its batch was handed to the node. */
  sentAt: number;
}

/**
 * Sends one transfer of `amount` to each of `targets` in turn, at `rate` a second (in batches every
 * `tickMs`, so each block gets its share), until every target is paid. Resolves with what it sent.
 */
export async function streamPayments(options: {
  env: { RPC_URL: string; USDC_ADDRESS?: string };
  targets: readonly Address[];
  rate: number;
  amount: bigint;
  payers?: readonly Address[];
  tickMs?: number;
  /** Called as each batch is handed to the node: payments sent now, and before it. */
  onSent?: (count: number, previous: number) => void;
}): Promise<StreamPayment[]> {
  const payers = options.payers ?? PAYERS;
  const rpc = rpcBatch(options.env.RPC_URL);
  const counts = (await rpc(
    payers.map((a) => ({ method: 'eth_getTransactionCount', params: [a, 'pending'] })),
  )) as Hex[];
  const nonces = counts.map((n) => Number(n));
  const sent: StreamPayment[] = [];
  const started = performance.now();
  let turn = 0;
  while (sent.length < options.targets.length) {
    const due = Math.min(
      options.targets.length,
      Math.floor(((performance.now() - started) / 1000) * options.rate) + 1,
    );
    const batch = options.targets.slice(sent.length, due);
    const calls = batch.map((to) => {
      const payer = turn++ % payers.length;
      const nonce = nonces[payer] ?? 0;
      nonces[payer] = nonce + 1;
      return {
        method: 'eth_sendTransaction',
        params: [
          {
            from: payers[payer],
            nonce: numberToHex(nonce),
            to: options.env.USDC_ADDRESS,
            gas: GAS,
            data: encodeFunctionData({
              abi: erc20,
              functionName: 'transfer',
              args: [to, options.amount],
            }),
          },
        ],
      };
    });
    const at = performance.now();
    options.onSent?.(sent.length + batch.length, sent.length);
    const hashes = (await rpc(calls)) as Hash[];
    batch.forEach((to, i) => {
      sent.push({ to, hash: hashes[i] as Hash, sentAt: at });
    });
    await Bun.sleep(options.tickMs ?? 50);
  }
  return sent;
}

/** What the chain says of one deposit address. */
export interface ForwardedPayment {
  deposit: Address;
  /** Block of the first transfer into it, and everything that arrived. */
  arrivedBlock: bigint | null;
  received: bigint;
  /** Sent from it to its payout address, and the block at which that reached 98% of `received`. */
  toPayout: bigint;
  forwardedBlock: bigint | null;
  /** Transfers out of it (any destination). */
  transfersOut: number;
}

/** The chain's view of a stream: every deposit address, and the transactions that forwarded. */
export interface StreamLedger {
  payments: ForwardedPayment[];
  /** Distinct transactions that moved USDC out of the deposit addresses. */
  forwardingTxs: Hash[];
  /** Their gas used, summed. */
  forwardingGas: bigint;
}

/**
 * Reads the USDC Transfer logs of blocks `fromBlock`..`toBlock` (in chunks) for the given deposit
 * addresses and their payout addresses, and the receipts of the transactions that moved USDC out.
 */
export async function readStreamLedger(options: {
  rpcUrl: string;
  usdc: Address;
  /** Deposit address → its payout address. */
  payouts: ReadonlyMap<Address, Address>;
  fromBlock: bigint;
  toBlock: bigint;
  client?: PublicClient;
}): Promise<StreamLedger> {
  const client =
    options.client ??
    (createPublicClient({ chain: foundry, transport: http(options.rpcUrl) }) as PublicClient);
  const payouts = new Map<string, string>();
  for (const [deposit, payout] of options.payouts)
    payouts.set(deposit.toLowerCase(), payout.toLowerCase());
  const state = new Map<string, ForwardedPayment>();
  for (const deposit of options.payouts.keys())
    state.set(deposit.toLowerCase(), {
      deposit,
      arrivedBlock: null,
      received: 0n,
      toPayout: 0n,
      forwardedBlock: null,
      transfersOut: 0,
    });
  const txs = new Set<Hash>();
  const CHUNK = 100n;
  for (let from = options.fromBlock; from <= options.toBlock; from += CHUNK) {
    const to = from + CHUNK - 1n < options.toBlock ? from + CHUNK - 1n : options.toBlock;
    const logs = await client.getLogs({
      address: options.usdc,
      event: transferEvent,
      fromBlock: from,
      toBlock: to,
    });
    for (const log of logs) {
      const sender = log.args.from?.toLowerCase() ?? '';
      const receiver = log.args.to?.toLowerCase() ?? '';
      const value = log.args.value ?? 0n;
      const into = state.get(receiver);
      if (into) {
        into.received += value;
        into.arrivedBlock ??= log.blockNumber;
      }
      const out = state.get(sender);
      if (out) {
        out.transfersOut++;
        txs.add(log.transactionHash);
        if (payouts.get(sender) === receiver) {
          out.toPayout += value;
          if (out.forwardedBlock === null && out.toPayout * 100n >= out.received * 98n)
            out.forwardedBlock = log.blockNumber;
        }
      }
    }
  }
  const forwardingTxs = [...txs];
  const rpc = rpcBatch(options.rpcUrl);
  let forwardingGas = 0n;
  for (let i = 0; i < forwardingTxs.length; i += 200) {
    const receipts = (await rpc(
      forwardingTxs
        .slice(i, i + 200)
        .map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
    )) as ({ gasUsed: Hex } | null)[];
    for (const receipt of receipts) if (receipt) forwardingGas += BigInt(receipt.gasUsed);
  }
  return { payments: [...state.values()], forwardingTxs, forwardingGas };
}
