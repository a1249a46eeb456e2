// What the x402 tests share: the stack (Postgres, anvil at 200 ms blocks with Circle's USDC, the
// indexer, and the worker's loops in-process at depth 2 with quick retries), a client of the
// chain, and an agent: the reference client (`@x402/fetch` with an `@x402/evm` signer) that pays
// whatever `target` answers 402, keeping the headers of every request it sends.
import type { localAccount } from '@store/stack/usdc';
import { ExactEvmScheme } from '@x402/evm';
import { wrapFetchWithPaymentFromConfig, x402Client } from '@x402/fetch';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { type ApiConfig, loadWorkerConfig } from '../../src/config.ts';
import { startSettlement } from '../../src/worker/settlement-loops.ts';
import { type ChainApi, useChainApi } from './chain-api.ts';

/** Registers the stack of an x402 test file (set X402_TEST_LOG to see the worker's log). */
export function useX402Stack(): ChainApi {
  return useChainApi({
    confirmations: 2,
    poolSize: 8,
    worker: ({ stack, database }) =>
      startSettlement(
        loadWorkerConfig({
          ...stack.env,
          CONFIRMATIONS: '2',
          FORWARDING_RETRY_BASE_MS: '100',
          WEBHOOK_RETRY_BASE_MS: '100',
        }),
        database.db,
        { log: (line) => process.env.X402_TEST_LOG && console.log(line) },
      ),
  });
}

/** A client of the test chain. */
export const chainClientOf = (t: ChainApi) =>
  createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });

/** An agent signing with `account` that pays what `target` answers 402 and keeps what it sent. */
export function x402Agent(
  t: { config: Pick<ApiConfig, 'chain'> },
  account: ReturnType<typeof localAccount>,
  target: (request: Request) => Promise<Response>,
) {
  const sent: Headers[] = [];
  const seen = (async (input: string | Request, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(input, init) : new Request(input, init);
    sent.push(new Headers(request.headers));
    return target(request);
  }) as typeof fetch;
  const network = `eip155:${t.config.chain.chainId}` as const;
  // Note: the local chain's USDC is not one of the client's default assets: allowed by address,
  // capped at 1 USDC a payment.
  const config = {
    schemes: [{ network, client: new ExactEvmScheme(account) }],
    spendControls: {
      allowedAssets: [{ network, asset: t.config.chain.usdc, maxAmountPerPayment: '1000000' }],
    },
  };
  return {
    pay: wrapFetchWithPaymentFromConfig(seen, config),
    sent,
    client: x402Client.fromConfig(config),
    scheme: new ExactEvmScheme(account),
  };
}
