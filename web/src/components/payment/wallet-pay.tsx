// 'Pay with browser wallet': the USDC transfer of the amount due from a wallet extension in this
// browser (EIP-6963, else window.ethereum), with the transaction shown while it is pending. Hidden
// when the browser has no wallet. viem's wallet code loads on the first click.
import { useState } from 'react';
import { explorerTxUrl } from '../../lib/chain-info.ts';
import type { InjectedWallet } from '../../lib/injected-wallets.ts';
import type { WalletFailure } from './wallet-transfer.ts';

/** What the wallet is doing, as the shopper sees it. */
type WalletStep =
  | { step: 'idle' }
  | { step: 'asking' }
  | { step: 'pending'; hash: string }
  | { step: 'included'; hash: string }
  /** Sent, then the wallet stopped answering (a timeout, an RPC error): it may still land. */
  | { step: 'unconfirmed'; hash: string }
  | { step: 'failed'; reason: WalletFailure; hash?: string };

/** The sentence of each failure; every one leaves the button ready for another try. */
export const WALLET_FAILURE_TEXTS: Record<WalletFailure, string> = {
  rejected: 'You rejected the payment in your wallet. Nothing was sent; you can try again.',
  reverted:
    'The transaction failed on the chain and sent no USDC. Check your USDC balance and try again.',
  'no-account': 'Your wallet shared no account. Unlock it and try again.',
  failed:
    'Your wallet could not send the payment. Try again, or pay with the QR code or the address.',
};

/** The transaction hash, linked to the block explorer where the chain has one. */
function TxHash(props: { chainId: number; hash: string }) {
  const url = explorerTxUrl(props.chainId, props.hash);
  const text = `${props.hash.slice(0, 10)}…${props.hash.slice(-8)}`;
  return (
    <code className="address" title={props.hash} data-testid="wallet-tx">
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {text}
        </a>
      ) : (
        text
      )}
    </code>
  );
}

/** The button, the wallet choice when there are several, and the payment's progress. */
export function WalletPay(props: {
  /**
   * False once the payment is confirmed or the page failed: the button goes, a transaction
   * already sent stays on screen.
   */
  payable: boolean;
  wallets: readonly InjectedWallet[];
  chainId: number;
  usdc: `0x${string}`;
  to: `0x${string}`;
  /** USDC base units due now (the remaining amount after a partial payment). */
  amount: bigint;
  networkName: string;
  /** How long the wallet's node is asked for the receipt (tests shorten it). */
  receiptTimeoutMs?: number;
}) {
  const [state, setState] = useState<WalletStep>({ step: 'idle' });
  const [chosen, setChosen] = useState<string>();
  const wallet = props.wallets.find((known) => known.id === chosen) ?? props.wallets[0];
  if (!wallet) return null;
  // Note: a transaction that was sent keeps the button off until the page hears of the payment
  // (a second tap could pay twice).
  const busy = state.step === 'asking' || state.step === 'pending' || state.step === 'unconfirmed';
  if (!props.payable && !busy && state.step !== 'included') return null;
  const offer = props.payable || busy;

  const pay = async () => {
    setState({ step: 'asking' });
    let sent: string | undefined;
    try {
      const { payFromWallet } = await import('./wallet-transfer.ts');
      const hash = await payFromWallet({
        provider: wallet.provider,
        chainId: props.chainId,
        usdc: props.usdc,
        to: props.to,
        amount: props.amount,
        receiptTimeoutMs: props.receiptTimeoutMs,
        onSent: (hash) => {
          sent = hash;
          setState({ step: 'pending', hash });
        },
      });
      setState({ step: 'included', hash });
    } catch (error) {
      const { WalletPaymentError } = await import('./wallet-transfer.ts');
      const reason = error instanceof WalletPaymentError ? error.reason : 'failed';
      if (reason !== 'rejected') console.warn('Wallet payment failed', error);
      if (sent && reason !== 'reverted') setState({ step: 'unconfirmed', hash: sent });
      else setState({ step: 'failed', reason, ...(sent ? { hash: sent } : {}) });
    }
  };

  return (
    <div className="wallet-pay">
      {offer && props.wallets.length > 1 && (
        <label className="wallet-choice">
          <span>Wallet</span>
          <select
            value={wallet.id}
            disabled={busy}
            onChange={(event) => setChosen(event.target.value)}
          >
            {props.wallets.map((known) => (
              <option key={known.id} value={known.id}>
                {known.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {offer && (
        <button
          type="button"
          className="button button-block"
          disabled={busy || state.step === 'included'}
          onClick={() => void pay()}
        >
          {state.step === 'asking' ? 'Confirm in your wallet…' : 'Pay with browser wallet'}
        </button>
      )}
      <div aria-live="polite" data-testid="wallet-progress">
        {state.step === 'pending' && (
          <p className="small">
            Transaction sent: <TxHash chainId={props.chainId} hash={state.hash} />. Waiting for it
            to be included in a block on {props.networkName}…
          </p>
        )}
        {state.step === 'included' && (
          <p className="small">
            Transaction <TxHash chainId={props.chainId} hash={state.hash} /> is in a block.
            {props.payable && ' This page turns to confirmed once the payment is seen.'}
          </p>
        )}
        {state.step === 'unconfirmed' && (
          <p className="small" role="status">
            Transaction <TxHash chainId={props.chainId} hash={state.hash} /> was sent, but your
            wallet stopped reporting on it. Don't pay again: this page turns to confirmed once the
            payment arrives. If it does not, look the transaction up in your wallet.
          </p>
        )}
        {state.step === 'failed' && (
          <p className="small notice-error-text" role="alert">
            {WALLET_FAILURE_TEXTS[state.reason]}
            {state.hash && (
              <>
                {' '}
                Transaction: <TxHash chainId={props.chainId} hash={state.hash} />
              </>
            )}
          </p>
        )}
      </div>
    </div>
  );
}
