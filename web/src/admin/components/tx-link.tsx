// A transaction hash in full, linked to the chain's block explorer where it has one (none on a
// local chain).
import { explorerTxUrl, useChainInfo } from '../../lib/chain-info.ts';

/** The hash, as a link to its explorer page when the chain has an explorer. */
export function TxLink(props: { hash: string }) {
  const { chainId } = useChainInfo();
  const url = explorerTxUrl(chainId, props.hash);
  const text = <span className="mono">{props.hash}</span>;
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className="order-tx">
      {text}
    </a>
  ) : (
    <span className="order-tx">{text}</span>
  );
}
