// The order page's refunds: what arrived, is missing or extra, what is held on the deposit address
// for the payer, each refund (its status, the payer's claim link while it awaits an address, its
// transaction once sent), and the merchant's decisions on an underpaid order, the day it happens
// (deciding closes its payment window): "Accept as paid" (what arrived is forwarded) or "Refund"
// (everything on the deposit address goes back to the payer, who confirms the address through the
// claim link); for a paid, forwarded order
// a full or partial refund from the payout wallet, sent with one browser-wallet transfer once the
// payer confirmed the address (the worker then matches it on chain).
import {
  formatUsdc,
  type OrderRefunds,
  parseUsdc,
  type Refund,
  TEAM_MESSAGES,
  tryParseUsdc,
} from '@store/shared';
import { useCallback, useEffect, useState } from 'react';
import { aboveRefundCap } from '../../../admin/permissions.ts';
import { QrCode } from '../../../components/payment/qr-code.tsx';
import { ApiError, errorText } from '../../../lib/api.ts';
import { useChainInfo } from '../../../lib/chain-info.ts';
import { usdcExact } from '../../../lib/format.ts';
import { type InjectedWallet, useInjectedWallets } from '../../../lib/injected-wallets.ts';
import { paymentUri } from '../../../lib/payment-uri.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import {
  acceptUnderpaid,
  createRefund,
  getOrderRefunds,
  noteRefundSent,
} from '../../../refunds/api.ts';

const amount = (value: string) => `${formatUsdc(parseUsdc(value))} USDC`;

const REASONS: Record<string, string> = {
  excess: 'Overpaid excess',
  underpaid: 'Underpaid order',
  expired: 'Expired order',
  oversold: 'Oversold order',
  merchant: 'Refund from your payout wallet',
  undelivered: 'Paid API request not delivered',
};

const STATUSES: Record<string, string> = {
  awaiting_address: 'waiting for the payer to confirm the address',
  ready: 'address confirmed, ready to send',
  sending: 'sending',
  refunded: 'refunded',
  canceled: 'canceled',
  failed: 'failed',
};

/**
 * The refunds card of the order page (nothing until the order has a deposit address); without
 * `canRefund` (a role that may not refund) it shows the refunds without the buttons; with
 * `refundCap` (a staff member's refund limit) its refund form goes no higher than that, and a
 * decision above it is shown disabled with the reason.
 */
export function OrderRefundsCard(props: {
  orderId: string;
  canRefund?: boolean;
  refundCap?: string | null;
}) {
  const canRefund = props.canRefund ?? true;
  const [view, setView] = useState<OrderRefunds>();
  const [busy, setBusy] = useState<'accept' | 'refund'>();
  const load = useCallback(
    () => getOrderRefunds(props.orderId).then(setView, () => undefined),
    [props.orderId],
  );
  useEffect(() => {
    void load();
  }, [load]);
  // Note: while a refund is on its way the card looks again until it is refunded.
  const moving = view?.refunds.some((r) => r.status === 'ready' || r.status === 'sending');
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, [moving, load]);
  if (!view?.paymentStatus) return null;

  const decide = async (kind: 'accept' | 'refund') => {
    setBusy(kind);
    try {
      const next =
        kind === 'accept'
          ? await acceptUnderpaid(props.orderId)
          : await createRefund(props.orderId);
      setView(next);
      toast({
        title: kind === 'accept' ? 'Order accepted as paid' : 'Refund started',
        description:
          kind === 'accept'
            ? 'What arrived is forwarded to your payout wallet.'
            : 'The payer confirms the address through the claim link; the refund is then sent.',
      });
    } catch (error) {
      toastError(
        kind === 'accept' ? 'Could not accept the order' : 'Could not start the refund',
        error instanceof ApiError ? error.text : errorText(error),
      );
      void load();
    } finally {
      setBusy(undefined);
    }
  };

  // Note: the API caps what accepting forgoes (the missing part) and a deposit refund (all of it)
  // at a staff member's limit; a button it would refuse is shown disabled, with the reason.
  // Such a button stays focusable (aria-disabled), so its reason is heard when it is reached.
  const cap = props.refundCap ?? null;
  const acceptAboveCap = view.canAcceptUnderpaid && aboveRefundCap(cap, view.missingAmount);
  const refundAboveCap = view.canRefundDeposit && aboveRefundCap(cap, view.onDepositAmount);
  const exact = (value: string) => `${usdcExact(parseUsdc(value))} USDC`;
  const extra = parseUsdc(view.extraAmount) > 0n;
  const missing = parseUsdc(view.missingAmount) > 0n && parseUsdc(view.receivedAmount) > 0n;
  const payoutLeft = parseUsdc(view.refundableFromPayout) > 0n;
  if (view.refunds.length === 0 && !extra && !missing && !view.canRefundDeposit && !payoutLeft)
    return null;
  return (
    <section className="card" aria-labelledby="order-refunds-title">
      <h2 id="order-refunds-title">Refunds</h2>
      <dl className="order-facts">
        <div>
          <dt>Received</dt>
          <dd>{amount(view.receivedAmount)}</dd>
        </div>
        {missing && (
          <div>
            <dt>Missing</dt>
            <dd>{amount(view.missingAmount)}</dd>
          </div>
        )}
        {extra && (
          <div>
            <dt>Extra (the payer's)</dt>
            <dd>{amount(view.extraAmount)}</dd>
          </div>
        )}
        {parseUsdc(view.onDepositAmount) > 0n && (
          <div>
            <dt>On the deposit address</dt>
            <dd>{amount(view.onDepositAmount)}</dd>
          </div>
        )}
      </dl>
      {view.refunds.length > 0 && (
        <ul className="order-legs" aria-label="Refunds">
          {view.refunds.map((refund) => (
            <RefundLine
              key={refund.id}
              refund={refund}
              orderId={props.orderId}
              payoutAddress={view.payoutAddress}
              onChange={setView}
              canRefund={canRefund}
            />
          ))}
        </ul>
      )}
      {canRefund && (view.canAcceptUnderpaid || view.canRefundDeposit) && (
        <>
          <p className="small muted">
            {view.canAcceptUnderpaid
              ? `Only ${amount(view.receivedAmount)} of ${amount(view.expectedAmount)} arrived. Accept the order as paid (what arrived is forwarded, less the 2% fee) or refund the payer in full from the deposit address (the platform pays the network fee). Either closes the payment window: anything the shopper sends later goes back to them.`
              : 'This order was not paid. Refund what arrived to the payer in full from the deposit address.'}
          </p>
          {(acceptAboveCap || refundAboveCap) && cap !== null && (
            <p className="small">
              {acceptAboveCap && (
                <span id="refund-limit-accept">
                  Accepting forgoes the {exact(view.missingAmount)} missing, above your refund limit
                  in this store ({exact(cap)}).{' '}
                </span>
              )}
              {refundAboveCap && (
                <span id="refund-limit-refund">
                  Refunding {exact(view.onDepositAmount)} is above your refund limit in this store (
                  {exact(cap)}).{' '}
                </span>
              )}
              <span id="refund-limit-who">An owner or admin of the store can decide it.</span>
            </p>
          )}
          <div className="actions">
            {view.canAcceptUnderpaid && (
              <button
                type="button"
                className="button"
                disabled={busy !== undefined}
                aria-disabled={acceptAboveCap || undefined}
                aria-describedby={
                  acceptAboveCap ? 'refund-limit-accept refund-limit-who' : undefined
                }
                onClick={() => {
                  if (!acceptAboveCap) void decide('accept');
                }}
              >
                {busy === 'accept' ? 'Accepting...' : 'Accept as paid'}
              </button>
            )}
            {view.canRefundDeposit && (
              <button
                type="button"
                className="button button-quiet"
                disabled={busy !== undefined}
                aria-disabled={refundAboveCap || undefined}
                aria-describedby={
                  refundAboveCap ? 'refund-limit-refund refund-limit-who' : undefined
                }
                onClick={() => {
                  if (!refundAboveCap) void decide('refund');
                }}
              >
                {busy === 'refund' ? 'Starting...' : `Refund ${amount(view.onDepositAmount)}`}
              </button>
            )}
          </div>
        </>
      )}
      {canRefund && payoutLeft && (
        <PayoutRefundForm
          orderId={props.orderId}
          refundable={view.refundableFromPayout}
          cap={props.refundCap ?? null}
          onCreated={setView}
        />
      )}
    </section>
  );
}

/**
 * A full or partial refund of a forwarded order, sent later from the payout wallet; with `cap` (a
 * staff member's refund limit) it starts at the cap and refuses more before asking the API, in the
 * API's own words.
 */
function PayoutRefundForm(props: {
  orderId: string;
  refundable: string;
  cap: string | null;
  onCreated: (view: OrderRefunds) => void;
}) {
  const refundable = parseUsdc(props.refundable);
  const cap = props.cap === null ? undefined : tryParseUsdc(props.cap);
  const capped = cap !== undefined && cap < refundable;
  const most = formatUsdc(capped ? cap : refundable);
  const [value, setValue] = useState(most);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const aboveCap = (text: string) => aboveRefundCap(props.cap, text);
  const submit = async () => {
    if (aboveCap(value)) {
      setError(TEAM_MESSAGES.refundAboveLimit);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      props.onCreated(await createRefund(props.orderId, value.trim()));
      toast({
        title: 'Refund created',
        description:
          'The payer confirms the address through the claim link; then send it from your wallet here.',
      });
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.text : errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="refund-payout-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="field">
        <label htmlFor="refund-amount">Refund from your payout wallet (USDC)</label>
        <input
          id="refund-amount"
          inputMode="decimal"
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(aboveCap(event.target.value) ? TEAM_MESSAGES.refundAboveLimit : undefined);
          }}
          aria-invalid={error !== undefined}
          aria-describedby={error ? 'refund-amount-hint refund-amount-error' : 'refund-amount-hint'}
        />
        <p id="refund-amount-hint" className="field-hint">
          Up to {most} USDC{capped ? ', your refund limit in this store' : ''}. You send it from
          your payout wallet and pay its network fee; the 2% fee is not returned.
        </p>
        {error && (
          <p id="refund-amount-error" className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="button button-quiet" disabled={busy}>
        {busy ? 'Creating...' : 'Create refund'}
      </button>
    </form>
  );
}

/**
 * Sends a merchant refund from the browser wallet: the payout address must be the wallet's
 * account; the transaction hash is noted, and the worker records the refund once it is on chain.
 */
function SendFromWallet(props: {
  orderId: string;
  refund: Refund;
  payoutAddress: string | null;
  onChange: (view: OrderRefunds) => void;
}) {
  const wallets = useInjectedWallets();
  const chain = useChainInfo();
  const [state, setState] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { refund } = props;
  const send = async (wallet: InjectedWallet) => {
    if (!refund.toAddress) return;
    setBusy(true);
    setState(undefined);
    try {
      const accounts = (await wallet.provider.request({ method: 'eth_requestAccounts' })) as
        | string[]
        | null;
      const account = accounts?.[0];
      if (
        props.payoutAddress &&
        account &&
        account.toLowerCase() !== props.payoutAddress.toLowerCase()
      ) {
        setState(`Switch your wallet to the payout address ${props.payoutAddress} and try again.`);
        return;
      }
      const { payFromWallet } = await import('../../../components/payment/wallet-transfer.ts');
      await payFromWallet({
        provider: wallet.provider,
        chainId: chain.chainId,
        usdc: chain.usdc as `0x${string}`,
        to: refund.toAddress as `0x${string}`,
        amount: parseUsdc(refund.amount),
        onSent: (hash) => {
          setState('Sent; waiting for the chain...');
          noteRefundSent(props.orderId, refund.id, hash).then(props.onChange, () => undefined);
        },
      });
      setState('Sent. The refund shows as refunded once the transfer is confirmed.');
    } catch (failure) {
      const { WalletPaymentError } = await import('../../../components/payment/wallet-transfer.ts');
      setState(
        failure instanceof WalletPaymentError && failure.reason === 'rejected'
          ? 'You rejected the transaction in your wallet.'
          : `The wallet could not send it: ${errorText(failure)}`,
      );
    } finally {
      setBusy(false);
    }
  };
  const wallet = wallets[0];
  return (
    <span className="small">
      {wallet ? (
        <button
          type="button"
          className="button"
          disabled={busy || !chain.loaded}
          onClick={() => void send(wallet)}
        >
          {busy ? 'Sending...' : `Send ${amount(refund.amount)} from ${wallet.name}`}
        </button>
      ) : (
        `Send ${amount(refund.amount)} from your payout wallet to ${refund.toAddress}.`
      )}
      {state && <span role="status"> {state}</span>}
      <RefundRequest refund={refund} />
    </span>
  );
}

/**
 * The refund as a payment request any wallet reads (EIP-681: token, chain, address and amount),
 * as a QR code and a link: a merchant on a phone, or with a wallet outside this browser, scans it
 * with the payout wallet. The transfer is matched on chain as any other.
 */
function RefundRequest(props: { refund: Refund }) {
  const chain = useChainInfo();
  const { refund } = props;
  const uri = paymentUri(chain, refund.toAddress ?? undefined, parseUsdc(refund.amount));
  if (!uri) return null;
  return (
    <span className="refund-request">
      <QrCode
        value={uri}
        label={`Payment request: ${amount(refund.amount)} to ${refund.toAddress}`}
      />
      <a href={uri} className="button button-quiet" data-testid="refund-uri">
        Open in wallet
      </a>
      <span className="muted">Scan it with your payout wallet, or open it in a wallet app.</span>
    </span>
  );
}

function RefundLine(props: {
  refund: Refund;
  orderId: string;
  payoutAddress: string | null;
  onChange: (view: OrderRefunds) => void;
  canRefund: boolean;
}) {
  const { refund } = props;
  return (
    <li>
      <span>
        {REASONS[refund.reason] ?? 'Refund'}: <strong>{amount(refund.amount)}</strong> (
        {STATUSES[refund.status] ?? refund.status})
      </span>
      {refund.toAddress && <span className="mono small">to {refund.toAddress}</span>}
      {!refund.toAddress && refund.suggestedAddress && (
        <span className="mono small">paid from {refund.suggestedAddress}</span>
      )}
      {refund.status === 'awaiting_address' && (
        <span className="small">
          The payer confirms the address through the link emailed to them and shown on their order
          page.
        </span>
      )}
      {refund.txHash && <span className="mono small">tx {refund.txHash}</span>}
      {refund.lastError && <span className="small field-error">{refund.lastError}</span>}
      {props.canRefund && refund.source === 'merchant' && refund.status === 'ready' && (
        <SendFromWallet
          orderId={props.orderId}
          refund={refund}
          payoutAddress={props.payoutAddress}
          onChange={props.onChange}
        />
      )}
    </li>
  );
}
