// Route /store/{slug}/payment/{orderId}: the store payment page, themed by the store layout.
import { createFileRoute } from '@tanstack/react-router';
import { StorePaymentPage } from '../../../../components/payment/store-payment-page.tsx';
import { IdParamSchema, requireParam } from '../../../../lib/route-params.ts';
import { useCurrentStore } from '../-components/store-context.tsx';

export const Route = createFileRoute('/store/$slug/payment/$orderId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.orderId),
  component: function StorePaymentRoute() {
    const { orderId } = Route.useParams();
    const store = useCurrentStore();
    return <StorePaymentPage orderId={orderId} store={store.data} />;
  },
});
