// Route /store/{slug}/thank-you/{orderId}: the order confirmation, themed by the store layout, with
// the store's own delivery estimate and, once paid, links to review each product.
import { deliveryEstimateOf, type Order, resolveStoreSettings } from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { OrderDownloads } from '../../../../components/order-downloads.tsx';
import { RefundClaimNotice } from '../../../../components/refund-claim-notice.tsx';
import { ShipmentCard } from '../../../../components/shipment-card.tsx';
import { ThankYouPage } from '../../../../components/thank-you.tsx';
import { IdParamSchema, requireParam } from '../../../../lib/route-params.ts';
import { useOrder } from '../../../../lib/use-order.ts';
import { ReviewLinks } from '../-components/review-links.tsx';
import { useCurrentStore } from '../-components/store-context.tsx';

export const Route = createFileRoute('/store/$slug/thank-you/$orderId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.orderId),
  component: function StoreThankYouRoute() {
    const { slug, orderId } = Route.useParams();
    const result = useOrder(orderId);
    const store = useCurrentStore();
    const settings = resolveStoreSettings(store.data ?? {});
    return (
      <>
        <ThankYouPage
          result={result}
          home={`/store/${slug}/`}
          paymentBase={`/store/${slug}/payment/`}
          deliveryEstimate={(order: Order) => deliveryEstimateOf(settings, order.shippingUsdc)}
        />
        {result.state === 'ready' && (
          <OrderDownloads orderId={orderId} status={result.order.status} />
        )}
        <ShipmentCard orderId={orderId} />
        <RefundClaimNotice orderId={orderId} />
        <ReviewLinks result={result} slug={slug} storeId={store.data?.id} />
      </>
    );
  },
});
