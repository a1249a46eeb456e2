// The body of both payment pages (docs/screens.md#payment-panel): status badge, countdown, QR code
// and address with copy buttons, exact amount, USDC contract, card on-ramp, wallet download link,
// payment details card, 'Check Payment Status', and the failure card with Try Again. The QR code
// and 'Open in wallet' carry an EIP-681 request for the USDC transfer of the amount due on the
// settlement chain, and 'Pay with browser wallet' sends it from a wallet extension.
import {
  CLIENT_PAYMENT_STATUS_LABELS,
  DETECTED_PAYMENT_LABEL,
  type Order,
  PAGE_TEXTS,
  PAYMENT_MESSAGES,
  tryParseUsdc,
  type Usdc,
} from '@store/shared';
import { buildOnrampUrl } from '@store/shared/payment-display';
import { useEffect } from 'react';
import { useChainInfo } from '../../lib/chain-info.ts';
import { usdc, usdcExact } from '../../lib/format.ts';
import { useInjectedWallets } from '../../lib/injected-wallets.ts';
import { paymentUri } from '../../lib/payment-uri.ts';
import { CopyButton } from '../copy-button.tsx';
import { Countdown, useSecondsLeft } from './countdown.tsx';
import { PaymentDetails } from './payment-details.tsx';
import { PaymentProgress, paymentAtDepth, paymentProgress } from './payment-progress.tsx';
import { QrCode } from './qr-code.tsx';
import type { PaymentSession } from './use-payment.ts';
import { WalletPay } from './wallet-pay.tsx';

/** A wallet app to download when the shopper has none. */
export const WALLET_DOWNLOAD_URL = 'https://www.coinbase.com/wallet/downloads';

/** Page-specific bits of the panel. */
export interface PaymentPanelProps {
  order: Order;
  session: PaymentSession;
  /** On-ramp partner order id: last 8 uppercase (store) or the full id (universal). */
  partnerOrderId: string;
  /** The merchant address the payment is forwarded to (universal page). */
  forwardingAddress?: string | null;
}

/** What the last status check says about the amount: part paid, or more than due (its exception). */
type AmountNote =
  | { kind: 'underpaid'; remaining: string; remainingUnits: Usdc; text: string }
  | { kind: 'overpaid'; text: string };

/** Statuses after which the payment counts (the API reads overpaid as received). */
const COUNTED = new Set(['received', 'forwarded']);

function amountNote(session: PaymentSession): AmountNote | undefined {
  const check = session.lastCheck;
  if (!check?.receivedAmount || !check.expectedAmount) return undefined;
  const received = tryParseUsdc(check.receivedAmount);
  const expected = tryParseUsdc(check.expectedAmount);
  if (received === undefined || expected === undefined) return undefined;
  // Note: every amount in one format, exact to the base unit (a rounded remainder underpays).
  const [got, due] = [usdcExact(received), usdcExact(expected)];
  if (check.status === 'underpaid' && received < expected) {
    const remaining = usdcExact(expected - received);
    return {
      kind: 'underpaid',
      remaining,
      remainingUnits: expected - received,
      text: `Received ${got} of ${due} USDC. Send the remaining ${remaining} USDC to the same address to complete the payment.`,
    };
  }
  // Note: overpaid is the payment's exception as the API reports it (from detection on), not a
  // comparison of amounts here; the amounts only word the note.
  if (check.exception === 'overpaid' && check.status !== 'reversed' && received > expected) {
    const extra = usdcExact(received - expected);
    // Note: the excess stays on the deposit address for the payer, who gets a link to claim it.
    const next = COUNTED.has(check.status)
      ? `Your order is paid. The extra ${extra} USDC stays on the payment address for you; a link to send it back to your wallet appears on this page and in your email.`
      : `The extra ${extra} USDC will stay on the payment address for you; a link to send it back to your wallet appears on this page and in your email.`;
    return {
      kind: 'overpaid',
      text: `You sent ${got} USDC, ${extra} USDC more than the ${due} USDC due. ${next}`,
    };
  }
  return undefined;
}

/** Everything between the page header and the footer of a payment page. */
export function PaymentPanel(props: PaymentPanelProps) {
  const { order, session } = props;
  const secondsLeft = useSecondsLeft(session.expiredAt);
  const { expire } = session;
  useEffect(() => {
    if (secondsLeft === 0) expire();
  }, [secondsLeft, expire]);

  const amount = session.wallet?.expectedAmount ?? order.totalUsdc;
  const note = amountNote(session);
  // Note: after a partial payment the shopper sends the rest, not the total again.
  const toSend = note?.kind === 'underpaid' ? note.remaining : amount;
  const due = note?.kind === 'underpaid' ? note.remainingUnits : tryParseUsdc(amount);
  const chain = useChainInfo();
  const wallets = useInjectedWallets();
  const deposit = session.wallet?.address;
  const uri = paymentUri(chain, deposit, due);
  const payable = session.status !== 'confirmed' && session.status !== 'failed';
  // Note: the page moves on once the payment is in a block; it says 'confirmed' only at depth.
  const detectedOnly =
    session.status === 'confirmed' &&
    paymentProgress(session.lastCheck) !== undefined &&
    !paymentAtDepth(session.lastCheck);
  // Note: offered only where the on-ramp sells USDC on the chain (not on test or local chains).
  const onrampUrl =
    session.wallet && chain.onrampNetwork
      ? buildOnrampUrl({
          network: chain.onrampNetwork,
          walletAddress: session.wallet.address,
          amountUsdc: toSend,
          customerEmail: order.customerEmail,
          redirectUrl: window.location.href,
          partnerOrderId: props.partnerOrderId,
          apiKey: import.meta.env.VITE_ONRAMP_API_KEY,
          baseUrl: import.meta.env.VITE_ONRAMP_URL || undefined,
        })
      : undefined;

  return (
    <div className="payment-panel">
      <div className="payment-status-row">
        <span
          className={`status-badge status-${session.status}`}
          role="status"
          data-testid="payment-status"
        >
          {detectedOnly ? DETECTED_PAYMENT_LABEL : CLIENT_PAYMENT_STATUS_LABELS[session.status]}
        </span>
        <span className="payment-expiry">
          Payment window closes in <Countdown secondsLeft={secondsLeft} />
          <span className="muted small"> · {PAGE_TEXTS.pollNote}</span>
        </span>
      </div>

      {session.status === 'failed' && (
        <section className="card notice notice-error" aria-labelledby="failed-title">
          <h2 id="failed-title">{PAYMENT_MESSAGES.failedCard.title}</h2>
          <p>{PAYMENT_MESSAGES.failedCard.description}</p>
          <button type="button" className="button" onClick={session.tryAgain}>
            Try Again
          </button>
        </section>
      )}
      {session.lastCheck?.status === 'reversed' && (
        <section className="card notice notice-error" role="alert" aria-labelledby="reversed-title">
          <h2 id="reversed-title">{PAYMENT_MESSAGES.reversedCard.title}</h2>
          <p>{PAYMENT_MESSAGES.reversedCard.description}</p>
        </section>
      )}
      {session.status === 'confirmed' && (
        <section className="card notice notice-success" aria-live="polite">
          <h2>{detectedOnly ? 'Payment detected' : 'Payment Confirmed'}</h2>
          <p>Thank you! Taking you to your order confirmation…</p>
        </section>
      )}
      <PaymentProgress check={session.lastCheck} />
      {note && (
        <p className="card notice notice-warning" role="status" data-testid="amount-note">
          {note.text}
        </p>
      )}

      <div className="payment-grid">
        <section className="card payment-send" aria-labelledby="send-title">
          <h2 id="send-title">
            {note?.kind === 'underpaid' ? 'Send the remaining' : 'Send exactly'}
          </h2>
          <p className="payment-amount" data-testid="payment-amount">
            {note?.kind === 'underpaid' ? `${toSend} USDC` : usdc(amount)}
          </p>
          {session.wallet ? (
            <>
              {uri && due !== undefined && deposit && (
                <div className="wallet-actions">
                  <WalletPay
                    payable={payable}
                    wallets={wallets}
                    chainId={chain.chainId}
                    usdc={chain.usdc as `0x${string}`}
                    to={deposit as `0x${string}`}
                    amount={due}
                    networkName={chain.networkName}
                  />
                  {payable && (
                    <a
                      className="button button-quiet button-block"
                      href={uri}
                      data-testid="open-in-wallet"
                    >
                      Open in wallet
                    </a>
                  )}
                </div>
              )}
              <QrCode
                value={uri ?? session.wallet.address}
                label={
                  uri
                    ? `QR code of the payment address ${session.wallet.address} with a request to pay ${toSend} USDC on ${chain.networkName}`
                    : `QR code of the payment address ${session.wallet.address}`
                }
              />
              <p className="address" data-testid="payment-address">
                {session.wallet.address}
              </p>
              <div className="actions">
                <CopyButton text={session.wallet.address} label="Address">
                  Copy Address
                </CopyButton>
                <CopyButton text={toSend} label="Amount">
                  Copy Amount
                </CopyButton>
              </div>
            </>
          ) : (
            <div className="qr-code qr-placeholder" aria-busy={session.status === 'processing'}>
              <span className="muted">
                {session.status === 'failed' ? 'No payment address' : 'Generating payment address…'}
              </span>
            </div>
          )}
          <div className="actions">
            <button
              type="button"
              className="button"
              onClick={() => void session.checkNow()}
              disabled={
                !session.wallet || session.status === 'processing' || session.status === 'confirmed'
              }
            >
              Check Payment Status
            </button>
            {onrampUrl && (
              <a
                className="button button-quiet"
                href={onrampUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                Buy USDC with Card
              </a>
            )}
          </div>
          <p className="muted small">
            No wallet yet?{' '}
            <a href={WALLET_DOWNLOAD_URL} target="_blank" rel="noopener noreferrer">
              Download a wallet app
            </a>
          </p>
        </section>
        <PaymentDetails
          orderId={order.id}
          walletAddress={session.wallet?.address}
          amountUsdc={amount}
          forwardingAddress={props.forwardingAddress}
        />
      </div>
    </div>
  );
}
