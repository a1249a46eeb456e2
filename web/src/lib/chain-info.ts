// The chain the API settles on and its USDC contract, read once from GET /api/health, so the
// payment pages show the contract the shopper must send (mainnet, Sepolia or a local chain).
// Until the API has answered the chain is unknown: pages name no network (UNKNOWN_NETWORK_NAME),
// link no explorer and offer no on-ramp, so no page ever names a chain the deployment is not on.
import { chainFacts } from '@store/shared';
import { useEffect, useState } from 'react';

/** The settlement chain. */
export interface ChainInfo {
  chainId: number;
  usdc: string;
  /** The block explorer's page of the USDC contract; undefined on a local chain. */
  explorerUrl?: string;
  networkName: string;
  /** False on Base mainnet only, where payments are real money. */
  testMode: boolean;
  /** The card on-ramp's name of the network; undefined where no card on-ramp serves it. */
  onrampNetwork?: string;
  /**
   * The payee of the demo link (GET /api/health `demo.payoutAddress`, DEMO_PAYOUT_ADDRESS): an
   * address the platform controls, never a burn address. Undefined until the API answers, or
   * when the deployment offers no live demo.
   */
  demoPayout?: string;
  /** Whether the shopper gets a receipt by email (GET /api/health `receipts.email`). */
  receiptsByEmail?: boolean;
  /** True once the API has answered (before, the chain is unknown: UNKNOWN_CHAIN). */
  loaded?: boolean;
}

/** Chain info for a chain id and token address (explorer and name from the shared chain facts). */
export function chainInfo(chainId: number, usdc: string, demoPayout?: string): ChainInfo {
  const facts = chainFacts(chainId);
  const explorer = facts?.explorerUrl;
  return {
    chainId,
    usdc,
    networkName: explorer && facts ? facts.name : `Local chain ${chainId}`,
    testMode: facts?.testMode ?? true,
    ...(facts?.onrampNetwork ? { onrampNetwork: facts.onrampNetwork } : {}),
    ...(explorer ? { explorerUrl: `${explorer}/token/${usdc}` } : {}),
    ...(demoPayout ? { demoPayout } : {}),
  };
}

/** The block explorer's page of a transaction; undefined on a local chain. */
export function explorerTxUrl(chainId: number, txHash: string): string | undefined {
  const explorer = chainFacts(chainId)?.explorerUrl;
  return explorer ? `${explorer}/tx/${txHash}` : undefined;
}

/** What pages say for the network while the deployment's chain is not known yet. */
export const UNKNOWN_NETWORK_NAME = '…';

/**
 * The chain before GET /api/health has answered (or when it could not be read): no chain id, no
 * token, no explorer, no on-ramp, and a neutral name, never a guess.
 */
export const UNKNOWN_CHAIN: ChainInfo = {
  chainId: 0,
  usdc: '',
  networkName: UNKNOWN_NETWORK_NAME,
  testMode: true,
  loaded: false,
};

let pending: Promise<ChainInfo> | undefined;

function loadChainInfo(): Promise<ChainInfo> {
  // Note: a degraded API answers 503 with the same body; the chain part is still right.
  pending ??= fetch('/api/health', { headers: { accept: 'application/json' } })
    .then(
      (response) =>
        response.json() as Promise<{
          chain?: { chainId?: number; usdc?: string };
          demo?: { payoutAddress?: string | null };
          receipts?: { email?: boolean };
        }>,
    )
    .then((health) => {
      if (!health?.chain?.chainId || !health.chain.usdc) {
        // Note: an answer without the chain is asked again next time, as a failure is.
        pending = undefined;
        return UNKNOWN_CHAIN;
      }
      return {
        ...chainInfo(
          health.chain.chainId,
          health.chain.usdc,
          health.demo?.payoutAddress ?? undefined,
        ),
        receiptsByEmail: health.receipts?.email === true,
        loaded: true,
      };
    })
    .catch(() => {
      pending = undefined;
      return UNKNOWN_CHAIN;
    });
  return pending;
}

/**
 * The settlement chain once GET /api/health has answered (asked again after a failure):
 * UNKNOWN_CHAIN only when it cannot be read. For work that must name the chain, such as a file.
 */
export function knownChainInfo(): Promise<ChainInfo> {
  return loadChainInfo();
}

/** The settlement chain (UNKNOWN_CHAIN until the API has answered). */
export function useChainInfo(): ChainInfo {
  const [info, setInfo] = useState(UNKNOWN_CHAIN);
  useEffect(() => {
    let live = true;
    void loadChainInfo().then((loaded) => live && setInfo(loaded));
    return () => {
      live = false;
    };
  }, []);
  return info;
}
