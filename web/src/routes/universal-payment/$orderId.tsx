// Route /universal-payment/{orderId}: the universal payment page
// (docs/screens.md#universal-payment-page): the external store's name, logo and colours from the
// order's metadata, the order number, the payment panel, and after confirmation the integrator's
// returnUrl when the order has one, else the thank-you page.
import { isLinkOrder, ORDER_NOT_FOUND, type Order, shortOrderIdUpper } from '@store/shared';
import { buildReturnUrl } from '@store/shared/payment-display';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { OrderGate } from '../../components/order-gate.tsx';
import { PaymentPanel } from '../../components/payment/payment-panel.tsx';
import { type ConfirmedBy, usePayment } from '../../components/payment/use-payment.ts';
import { RefundClaimNotice } from '../../components/refund-claim-notice.tsx';
import { StoreLogo } from '../../components/store-logo.tsx';
import { brandOfOrder, themeOfOrder } from '../../lib/order-theme.ts';
import { IdParamSchema, requireParam } from '../../lib/route-params.ts';
import { useStoreTheme } from '../../lib/theme.ts';
import { useOrder } from '../../lib/use-order.ts';

export const Route = createFileRoute('/universal-payment/$orderId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.orderId),
  component: UniversalPaymentRoute,
});

function UniversalPaymentRoute() {
  const { orderId } = Route.useParams();
  const result = useOrder(orderId);
  useStoreTheme(result.state === 'ready' ? (themeOfOrder(result.order) ?? {}) : undefined);
  return (
    <OrderGate result={result} notFoundDescription={ORDER_NOT_FOUND.universalDescription}>
      {(order) => <UniversalPayment order={order} />}
    </OrderGate>
  );
}

function UniversalPayment(props: { order: Order }) {
  const { order } = props;
  const navigate = useNavigate();
  const brand = brandOfOrder(order);
  const returnUrl = isLinkOrder(order.source) ? order.metadata?.returnUrl : undefined;
  const onConfirmed = (by: ConfirmedBy) => {
    // The integrator's returnUrl gets the shopper back after a payment seen on this page, by the
    // automatic detection or the manual check alike. Note: an order already paid on arrival
    // shows its thank-you page, so a returnUrl that links back here cannot loop.
    if (by !== 'already-paid' && returnUrl)
      window.location.assign(buildReturnUrl(returnUrl, order.id));
    else void navigate({ to: '/thank-you/$orderId', params: { orderId: order.id } });
  };
  const session = usePayment({
    orderId: order.id,
    orderStatus: order.status,
    kind: 'universal',
    onConfirmed,
  });
  return (
    <main className="page payment-page">
      <header className="payment-header">
        <StoreLogo name={brand.name} logoUrl={brand.logoUrl} />
        <div>
          <p className="muted">{brand.name}</p>
          <h1>
            Order <span data-testid="order-number">#{shortOrderIdUpper(order.id)}</span>
          </h1>
        </div>
      </header>
      <RefundClaimNotice orderId={order.id} embedded />
      <PaymentPanel
        order={order}
        session={session}
        partnerOrderId={order.id}
        forwardingAddress={order.payeeAddress}
      />
    </main>
  );
}
