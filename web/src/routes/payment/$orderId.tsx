// Route /payment/{orderId}: the store payment page without a slug; the store comes from the order.
import { createFileRoute } from '@tanstack/react-router';
import { StorePaymentPage } from '../../components/payment/store-payment-page.tsx';
import { IdParamSchema, requireParam } from '../../lib/route-params.ts';

export const Route = createFileRoute('/payment/$orderId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.orderId),
  component: function PaymentRoute() {
    const { orderId } = Route.useParams();
    return <StorePaymentPage orderId={orderId} />;
  },
});
