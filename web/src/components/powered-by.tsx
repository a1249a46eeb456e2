// The line under the hosted checkout pages: the token and the deployment's chain, by its name.
import { useChainInfo } from '../lib/chain-info.ts';

/** "Payments in USDC on {chain} · no account needed". */
export function PoweredBy() {
  const { networkName } = useChainInfo();
  return (
    <p className="muted small powered-by">Payments in USDC on {networkName} · no account needed</p>
  );
}
