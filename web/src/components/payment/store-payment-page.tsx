// The store payment page of /store/{slug}/payment/{orderId} and /payment/{orderId}
// (docs/screens.md#store-payment-page): loads the order and its store (by slug or by the order's
// storeId) for the theme, then runs the payment flow and goes to the thank-you page 2 s after
// confirmation.
import { ORDER_NOT_FOUND, type Order, type PublicStore, shortOrderIdUpper } from '@store/shared';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { fetchStore } from '../../lib/shop-api.ts';
import { useStoreTheme } from '../../lib/theme.ts';
import { useOrder } from '../../lib/use-order.ts';
import { OrderGate } from '../order-gate.tsx';
import { RefundClaimNotice } from '../refund-claim-notice.tsx';
import { StoreLogo } from '../store-logo.tsx';
import { PaymentPanel } from './payment-panel.tsx';
import { StockHoldNotice } from './stock-hold-notice.tsx';
import { usePayment } from './use-payment.ts';

/** A store known from the layout, or fetched by the order's storeId. */
function useOrderStore(
  order: Order | undefined,
  known: PublicStore | undefined,
): PublicStore | undefined {
  const [fetched, setFetched] = useState<PublicStore>();
  useEffect(() => {
    if (known || !order?.storeId) return;
    let live = true;
    fetchStore(order.storeId).then(
      (store) => live && setFetched(store),
      (error: unknown) => console.warn('Store of the order could not be loaded', error),
    );
    return () => {
      live = false;
    };
  }, [known, order]);
  return known ?? fetched;
}

/** The whole store payment page; `store` is given under /store/{slug}, fetched otherwise. */
export function StorePaymentPage(props: { orderId: string; store?: PublicStore }) {
  const result = useOrder(props.orderId);
  const order = result.state === 'ready' ? result.order : undefined;
  const store = useOrderStore(order, props.store);
  // Note: under /store/{slug} the layout already themes the page.
  useStoreTheme(props.store ? undefined : (store ?? (order ? {} : undefined)));

  return (
    <OrderGate result={result} notFoundDescription={ORDER_NOT_FOUND.description}>
      {(order) => <StorePayment order={order} store={store} />}
    </OrderGate>
  );
}

function StorePayment(props: { order: Order; store: PublicStore | undefined }) {
  const { order, store } = props;
  const navigate = useNavigate();
  const session = usePayment({
    orderId: order.id,
    orderStatus: order.status,
    kind: 'store',
    onConfirmed: () => {
      if (store)
        void navigate({
          to: '/store/$slug/thank-you/$orderId',
          params: { slug: store.slug, orderId: order.id },
        });
      else void navigate({ to: '/thank-you/$orderId', params: { orderId: order.id } });
    },
  });
  return (
    <main className="page payment-page">
      <header className="payment-header">
        {store && <StoreLogo name={store.name} logoUrl={store.logoUrl} />}
        <div>
          <p className="muted">{store?.name ?? 'Checkout'}</p>
          <h1>Complete Your Payment</h1>
        </div>
      </header>
      <StockHoldNotice
        order={order}
        heldUntil={session.wallet?.stockHeldUntil}
        paid={session.status !== 'waiting'}
      />
      <RefundClaimNotice orderId={order.id} embedded />
      <PaymentPanel order={order} session={session} partnerOrderId={shortOrderIdUpper(order.id)} />
    </main>
  );
}
