// Route /pay/{sessionId}: the hosted checkout of a checkout session an integrator's server created.
// Shows exactly the session's items and prices in the store's look, takes the shopper's details,
// and once the session has its order, the payment panel; after payment the shopper goes back to
// the session's returnUrl (with orderId and status=success), else to the thank-you page. An
// expired session shows a clear page with the way back to the integrator's cancelUrl.
import {
  ORDER_NOT_FOUND,
  type Order,
  type PublicCheckoutSession,
  shortOrderIdUpper,
} from '@store/shared';
import { buildReturnUrl } from '@store/shared/payment-display';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import {
  LoadingPage,
  MessageCard,
  NotFoundCard,
  OfflineCard,
} from '../../components/message-card.tsx';
import { OrderGate } from '../../components/order-gate.tsx';
import { PaymentPanel } from '../../components/payment/payment-panel.tsx';
import { type ConfirmedBy, usePayment } from '../../components/payment/use-payment.ts';
import { PoweredBy } from '../../components/powered-by.tsx';
import { StoreLogo } from '../../components/store-logo.tsx';
import { isNotFound } from '../../lib/api.ts';
import { fetchCheckoutSession } from '../../lib/checkout-session-api.ts';
import { IdParamSchema, requireParam } from '../../lib/route-params.ts';
import { useStoreTheme } from '../../lib/theme.ts';
import { useOrder } from '../../lib/use-order.ts';
import { SessionForm } from './-components/session-form.tsx';

export const Route = createFileRoute('/pay/$sessionId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.sessionId),
  component: HostedCheckoutRoute,
});

/** Texts of the hosted checkout's own states. */
export const HOSTED_CHECKOUT_TEXTS = {
  notFoundTitle: 'Checkout Not Found',
  notFoundDescription: "This checkout link doesn't exist. Ask the store for a new one.",
  expiredTitle: 'This checkout has expired',
  expiredDescription: (store: string) =>
    `Nothing was charged. Return to ${store} to start a new checkout.`,
} as const;

type SessionState =
  | { state: 'loading' }
  | { state: 'ready'; session: PublicCheckoutSession }
  | { state: 'not-found' }
  | { state: 'failed'; error: unknown };

function useCheckoutSession(id: string): SessionState {
  const [result, setResult] = useState<SessionState>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    fetchCheckoutSession(id).then(
      (session) => live && setResult({ state: 'ready', session }),
      (error: unknown) =>
        live && setResult(isNotFound(error) ? { state: 'not-found' } : { state: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return result;
}

function HostedCheckoutRoute() {
  const { sessionId } = Route.useParams();
  const result = useCheckoutSession(sessionId);
  const session = result.state === 'ready' ? result.session : undefined;
  const [orderId, setOrderId] = useState<string>();
  useStoreTheme(session?.store);

  if (result.state === 'loading') return <LoadingPage text="Loading checkout..." />;
  if (result.state === 'failed') return <OfflineCard what="checkout" error={result.error} />;
  if (result.state === 'not-found')
    return (
      <NotFoundCard
        title={HOSTED_CHECKOUT_TEXTS.notFoundTitle}
        description={HOSTED_CHECKOUT_TEXTS.notFoundDescription}
      />
    );
  const { session: loaded } = result;
  const paying = orderId ?? loaded.orderId;
  if (paying) return <SessionPayment session={loaded} orderId={paying} />;
  if (loaded.status !== 'open' || Date.parse(loaded.expiresAt) <= Date.now())
    return <ExpiredCheckout session={loaded} />;
  return (
    <main className="page checkout-page">
      <header className="payment-header">
        <StoreLogo name={loaded.store.name} logoUrl={loaded.store.logoUrl} />
        <div>
          <p className="muted">Secure checkout</p>
          <h1>{loaded.store.name}</h1>
        </div>
      </header>
      <SessionForm session={loaded} onCompleted={setOrderId} />
      {loaded.cancelUrl && (
        <p className="small powered-by">
          <a href={loaded.cancelUrl}>Cancel and return to {loaded.store.name}</a>
        </p>
      )}
      <PoweredBy />
    </main>
  );
}

function ExpiredCheckout(props: { session: PublicCheckoutSession }) {
  const { session } = props;
  return (
    <MessageCard
      title={HOSTED_CHECKOUT_TEXTS.expiredTitle}
      description={HOSTED_CHECKOUT_TEXTS.expiredDescription(session.store.name)}
    >
      {session.cancelUrl && (
        <a className="button" href={session.cancelUrl}>
          Return to {session.store.name}
        </a>
      )}
    </MessageCard>
  );
}

function SessionPayment(props: { session: PublicCheckoutSession; orderId: string }) {
  const result = useOrder(props.orderId);
  return (
    <OrderGate result={result} notFoundDescription={ORDER_NOT_FOUND.description}>
      {(order) => <PaymentView session={props.session} order={order} />}
    </OrderGate>
  );
}

function PaymentView(props: { session: PublicCheckoutSession; order: Order }) {
  const { session, order } = props;
  const navigate = useNavigate();
  const onConfirmed = (by: ConfirmedBy) => {
    // Note: an order already paid on arrival shows the thank-you page, so a returnUrl that links
    // back here cannot loop.
    if (by !== 'already-paid' && session.returnUrl)
      window.location.assign(buildReturnUrl(session.returnUrl, order.id));
    else void navigate({ to: '/thank-you/$orderId', params: { orderId: order.id } });
  };
  const payment = usePayment({
    orderId: order.id,
    orderStatus: order.status,
    kind: 'store',
    onConfirmed,
  });
  return (
    <main className="page payment-page">
      <header className="payment-header">
        <StoreLogo name={session.store.name} logoUrl={session.store.logoUrl} />
        <div>
          <p className="muted">{session.store.name}</p>
          <h1>
            Order <span data-testid="order-number">#{shortOrderIdUpper(order.id)}</span>
          </h1>
        </div>
      </header>
      <PaymentPanel order={order} session={payment} partnerOrderId={shortOrderIdUpper(order.id)} />
    </main>
  );
}
