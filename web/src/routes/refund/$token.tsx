// Route /refund/{token}: the payer's refund claim link (emailed, and shown on the order's payment
// and thank-you pages). It shows the order and the amount coming back, prefills the address that
// paid, warns that an exchange deposit address may not credit a refund, and confirms the address;
// then it follows the refund until its transaction is on chain. It wears the look of the page the
// payer paid on: the store's name, logo and colours (a link's own look for a link's order).
import {
  ClaimRefundSchema,
  formatUsdc,
  isLinkOrder,
  parseUsdc,
  REFUND_MESSAGES,
  type RefundClaim,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { MessageCard } from '../../components/message-card.tsx';
import { StoreLogo } from '../../components/store-logo.tsx';
import { ApiError, errorText } from '../../lib/api.ts';
import { useChainInfo } from '../../lib/chain-info.ts';
import { submitWith, useAppForm } from '../../lib/form.tsx';
import { brandOfOrder, themeOfOrder } from '../../lib/order-theme.ts';
import { fetchOrder, fetchStore } from '../../lib/shop-api.ts';
import { type StoreTheme, useStoreTheme } from '../../lib/theme.ts';
import { confirmRefundClaim, getRefundClaim } from '../../refunds/api.ts';
import '../../refunds/refunds.css';

export const Route = createFileRoute('/refund/$token')({
  component: RefundClaimPage,
});

const REASONS: Record<string, string> = {
  excess: 'You sent more than the order total; the difference is yours.',
  underpaid: 'Your payment did not reach the order total, and the store is returning what arrived.',
  expired: 'Your payment arrived after the order could be completed, and is being returned.',
  oversold: 'The store could not supply your order and is refunding your payment.',
  merchant: 'The store is refunding your order.',
  undelivered:
    'The resource you paid for could not be delivered, and your payment is being returned.',
};

const AddressForm = v.object({ address: ClaimRefundSchema.entries.address });

/** The look of the page the order was paid on: its name, logo and colours. */
interface ClaimBrand {
  name: string;
  logoUrl?: string | null | undefined;
  theme: StoreTheme;
}

/**
 * The brand of the claim's order, as its payment page shows it: a link's order from its own
 * metadata, a store's order from its store (public reads: the order's anonymous view, the store).
 * Undefined until read, or when it cannot be (the page then keeps the platform's look).
 */
function useClaimBrand(orderId: string | undefined): ClaimBrand | undefined {
  const [brand, setBrand] = useState<ClaimBrand>();
  useEffect(() => {
    if (!orderId) return;
    let live = true;
    const read = async (): Promise<ClaimBrand | undefined> => {
      const order = await fetchOrder(orderId);
      if (isLinkOrder(order.source))
        return { ...brandOfOrder(order), theme: themeOfOrder(order) ?? {} };
      if (!order.storeId) return undefined;
      const store = await fetchStore(order.storeId);
      return { name: store.name, logoUrl: store.logoUrl, theme: store };
    };
    read().then(
      (found) => live && setBrand(found),
      (error: unknown) => console.warn('The look of the refund page could not be loaded', error),
    );
    return () => {
      live = false;
    };
  }, [orderId]);
  return brand;
}

function RefundClaimPage() {
  const { token } = Route.useParams();
  const { networkName } = useChainInfo();
  const [claim, setClaim] = useState<RefundClaim>();
  const [failure, setFailure] = useState<string>();
  const brand = useClaimBrand(claim?.orderId);
  useStoreTheme(brand?.theme);
  useEffect(() => {
    getRefundClaim(token).then(setClaim, (error: unknown) =>
      setFailure(
        error instanceof ApiError
          ? error.text
          : 'Could not reach the server. Check your connection and open the link again.',
      ),
    );
  }, [token]);
  // Note: once confirmed, the page follows the refund until its transaction is on chain.
  const pending = claim?.status === 'ready' || claim?.status === 'sending';
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      getRefundClaim(token).then(setClaim, () => undefined);
    }, 3000);
    return () => clearInterval(timer);
  }, [pending, token]);

  if (failure)
    return (
      <MessageCard
        title="This refund link does not work"
        description={`${failure} Open the link from your email or the order page again.`}
        tone="error"
      />
    );
  if (!claim)
    return (
      <MessageCard title="Your refund">
        <p className="loading" role="status">
          Loading...
        </p>
      </MessageCard>
    );
  const amount = `${formatUsdc(parseUsdc(claim.amount))} USDC`;
  return (
    <main className="page page-centred">
      <section className="card refund-claim" aria-labelledby="refund-title">
        {brand && (
          <header className="payment-header refund-brand">
            <StoreLogo name={brand.name} logoUrl={brand.logoUrl} />
            <p className="muted">{brand.name}</p>
          </header>
        )}
        <h1 id="refund-title">Your refund</h1>
        <p className="muted">
          {brand ? '' : `${claim.storeName} · `}Order {claim.orderNumber.toUpperCase()}
        </p>
        <p className="refund-amount">
          <strong>{amount}</strong> on {networkName}
        </p>
        <p>{REASONS[claim.reason] ?? REASONS.merchant}</p>
        {claim.status === 'awaiting_address' && (
          <ClaimForm token={token} claim={claim} onClaimed={setClaim} />
        )}
        {pending && (
          <p role="status">
            Confirmed: {amount} is on its way to <code className="break">{claim.toAddress}</code>.
            This page updates once it arrives.
          </p>
        )}
        {claim.status === 'refunded' && (
          <p role="status">
            Refunded: {amount} was sent to <code className="break">{claim.toAddress}</code>.
            {claim.txHash && (
              <>
                {' '}
                Transaction <code className="break">{claim.txHash}</code>
              </>
            )}
          </p>
        )}
        {(claim.status === 'canceled' || claim.status === 'failed') && (
          <p role="alert">
            This refund could not be sent ({claim.status}). Contact {claim.storeName} about it.
          </p>
        )}
      </section>
    </main>
  );
}

function ClaimForm(props: {
  token: string;
  claim: RefundClaim;
  onClaimed: (claim: RefundClaim) => void;
}) {
  const [serverError, setServerError] = useState<string>();
  const { networkName } = useChainInfo();
  const form = useAppForm({
    defaultValues: { address: props.claim.suggestedAddress ?? '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: AddressForm as v.GenericSchema<{ address: string }, unknown> },
    onSubmit: async ({ value }) => {
      setServerError(undefined);
      try {
        props.onClaimed(await confirmRefundClaim(props.token, value.address.trim()));
      } catch (error) {
        setServerError(
          error instanceof ApiError
            ? error.text
            : `Could not reach the server. Check your connection. (${errorText(error)})`,
        );
      }
    },
  });
  const submitting = useStore(form.store, (s) => s.isSubmitting);
  const locked = props.claim.addressLocked === true;
  if (locked && !props.claim.suggestedAddress)
    return (
      <p className="refund-warning" role="note">
        {REFUND_MESSAGES.addressLocked}
      </p>
    );
  return (
    <form noValidate onSubmit={submitWith(form)}>
      {locked ? (
        <>
          <p className="muted">Send the refund to the address you paid from:</p>
          <p className="refund-address" data-testid="refund-address">
            <code>{props.claim.suggestedAddress}</code>
          </p>
          <p className="muted small" role="note">
            {REFUND_MESSAGES.addressLocked}
          </p>
        </>
      ) : (
        <form.AppField name="address">
          {(field) => (
            <field.InputField
              label="Send the refund to"
              autoComplete="off"
              hint={
                props.claim.suggestedAddress
                  ? 'The address you paid from. Change it if you want the money elsewhere.'
                  : `Your wallet address on ${networkName} (0x...).`
              }
            />
          )}
        </form.AppField>
      )}
      <p className="refund-warning" role="note">
        {REFUND_MESSAGES.exchangeWarning}
      </p>
      {serverError && (
        <p className="field-error" role="alert">
          {serverError}
        </p>
      )}
      <button type="submit" className="button button-block" disabled={submitting}>
        {submitting ? 'Confirming...' : 'Confirm refund address'}
      </button>
    </form>
  );
}
