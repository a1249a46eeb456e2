// Payment details card (docs/screens.md#payment-panel): wallet address, short order id, amount,
// network and USDC contract with copy and explorer link, and the exact-amount warning. Note: no
// network fee is shown: nothing measures a transfer's cost on the deployment's chain, and a guessed
// figure in dollars would not be true (the payer's wallet shows the real one before sending).
import { shortOrderId } from '@store/shared';
import { UNKNOWN_NETWORK_NAME, useChainInfo } from '../../lib/chain-info.ts';
import { usdc } from '../../lib/format.ts';
import { CopyButton } from '../copy-button.tsx';
import { WarningIcon } from '../icons.tsx';

/** The details card beside the QR code. */
export function PaymentDetails(props: {
  orderId: string;
  walletAddress: string | undefined;
  amountUsdc: string;
  forwardingAddress?: string | null | undefined;
}) {
  const chain = useChainInfo();
  return (
    <section className="card payment-details" aria-labelledby="details-title">
      <h2 id="details-title">Payment Details</h2>
      <dl className="details-list">
        <div>
          <dt>Order ID</dt>
          <dd data-testid="short-order-id">#{shortOrderId(props.orderId)}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{usdc(props.amountUsdc)}</dd>
        </div>
        <div>
          <dt>Network</dt>
          <dd>{chain.networkName} (USDC only)</dd>
        </div>
        <div>
          <dt>Wallet address</dt>
          <dd className="address">{props.walletAddress ?? '—'}</dd>
        </div>
        {props.forwardingAddress && (
          <div>
            <dt>Forwarded to</dt>
            <dd className="address">{props.forwardingAddress}</dd>
          </div>
        )}
        <div>
          <dt>USDC contract</dt>
          {/* Note: no contract until the API has said which chain the deployment settles on. */}
          {chain.loaded ? (
            <dd className="address">
              {chain.usdc}{' '}
              <CopyButton text={chain.usdc} label="USDC contract">
                Copy USDC Contract
              </CopyButton>
              {chain.explorerUrl && (
                <a href={chain.explorerUrl} target="_blank" rel="noopener noreferrer">
                  View on explorer
                </a>
              )}
            </dd>
          ) : (
            <dd className="address">{UNKNOWN_NETWORK_NAME}</dd>
          )}
        </div>
      </dl>
      <p className="warning" role="note">
        <WarningIcon size="1.1em" aria-hidden="true" className="warning-icon" /> Send the exact
        amount of USDC on {chain.networkName}. A different amount, token or network may delay or
        lose your payment.
      </p>
    </section>
  );
}
