// Background USDC traffic for the detection benchmark (issue 20): `perBlock` transfers of 0.01
// USDC to fresh random addresses in every 200 ms block, from accounts the payments never use,
// and what it costs the indexer (lag behind the chain) and the database (bytes per transfer).
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  parseAbi,
} from 'viem';
import { foundry } from 'viem/chains';
import { mintLocalUsdc } from './usdc.ts';

const erc20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
/**
 * Senders: addresses no test account or role of the local chain uses (impersonated on anvil), in
 * groups of 8, a fresh group for each load level so that no level inherits another's nonces.
 */
export const SENDERS = Array.from(
  { length: 64 },
  (_, i) => `0x${'b0'.repeat(19)}${(i + 1).toString(16).padStart(2, '0')}` as Address,
);
// Note: an explicit gas limit skips estimateGas; a transfer to a fresh address uses 62,147.
const GAS = numberToHex(70_000n);

type Rpc = (calls: { method: string; params: unknown[] }[]) => Promise<unknown[]>;

/** JSON-RPC batch over HTTP (one request for many calls). */
function rpcBatch(rpcUrl: string): Rpc {
  let id = 0;
  return async (calls) => {
    const body = calls.map((c) => ({ jsonrpc: '2.0', id: ++id, ...c }));
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answers = (await response.json()) as { result?: unknown; error?: { message: string } }[];
    const failed = answers.find((a) => a.error);
    if (failed?.error) throw new Error(`background transfer: ${failed.error.message}`);
    return answers.map((a) => a.result);
  };
}

/** Gives the senders ETH and USDC and lets anvil send for them without keys (no signing cost). */
export async function prepareSenders(env: { RPC_URL: string; USDC_ADDRESS?: string }) {
  const rpc = rpcBatch(env.RPC_URL);
  const usdc = env.USDC_ADDRESS as Address;
  // Note: anvil's 30M gas limit aims blocks at 15M; 250 transfers (15.5M) would raise the base
  // fee every block until no transfer sent with the fees of its time is mined. Base's limit is
  // far higher, so the chain gets 300M here.
  await rpc([{ method: 'evm_setBlockGasLimit', params: [numberToHex(300_000_000n)] }]);
  await rpc(
    SENDERS.flatMap((address) => [
      { method: 'anvil_setBalance', params: [address, numberToHex(10n ** 21n)] },
      { method: 'anvil_impersonateAccount', params: [address] },
    ]),
  );
  const client = createPublicClient({ chain: foundry, transport: http(env.RPC_URL) });
  const hashes: Hex[] = [];
  for (const to of SENDERS)
    hashes.push(await mintLocalUsdc({ rpcUrl: env.RPC_URL, usdc, to, amount: 10n ** 13n }));
  for (const hash of hashes) await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
}

/** A random address nobody owns. */
const freshAddress = (): Address =>
  `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}` as Address;

/**
 * Sends `perBlock` transfers every 200 ms (one JSON-RPC batch, spread over the senders) until
 * stopped; `stop()` resolves with how many were accepted by the node.
 */
export function startBackground(
  env: { RPC_URL: string; USDC_ADDRESS?: string },
  perBlock: number,
  group = 0,
): { stop: () => Promise<number> } {
  // Note: 16 senders, so that each has at most ~16 transactions in a block at 250 a block (with 8,
  // about 31 each, anvil dropped most of them unmined).
  const senders = SENDERS.slice((group % 4) * 16, (group % 4) * 16 + 16);
  if (perBlock <= 0) return { stop: async () => 0 };
  const rpc = rpcBatch(env.RPC_URL);
  const usdc = env.USDC_ADDRESS as Hex;
  let stopped = false;
  let sent = 0;
  let turn = 0;
  const probes: Hex[] = [];
  const loop = (async () => {
    // Note: nonces counted here; anvil would give parallel calls of one batch the same one.
    const counts = (await rpc(
      senders.map((a) => ({ method: 'eth_getTransactionCount', params: [a, 'pending'] })),
    )) as Hex[];
    const nonces = counts.map((n) => Number(n));
    const take = (sender: number) => {
      const nonce = nonces[sender] ?? 0;
      nonces[sender] = nonce + 1;
      return nonce;
    };
    let next = performance.now();
    while (!stopped) {
      const calls = Array.from({ length: perBlock }, () => {
        const sender = turn++ % senders.length;
        return {
          method: 'eth_sendTransaction',
          params: [
            {
              from: senders[sender],
              nonce: numberToHex(take(sender)),
              to: usdc,
              gas: GAS,
              data: encodeFunctionData({
                abi: erc20,
                functionName: 'transfer',
                args: [freshAddress(), 10_000n],
              }),
            },
          ],
        };
      });
      const hashes = await rpc(calls);
      if (process.env.BENCH_PROBE) probes.push(hashes[0] as Hex);
      sent += perBlock;
      next += 200;
      await Bun.sleep(Math.max(0, next - performance.now()));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      if (process.env.BENCH_PROBE) {
        const receipts = await rpc(
          probes.slice(-30).map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })),
        );
        console.log(
          receipts.map((r) => {
            const x = r as { status: string; gasUsed: string; blockNumber: string } | null;
            return x ? `${x.blockNumber}:${x.status}:${Number(x.gasUsed)}` : 'none';
          }),
        );
      }
      return sent;
    },
  };
}
