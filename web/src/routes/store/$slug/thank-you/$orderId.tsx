// Route /store/{slug}/thank-you/{orderId}: the order confirmation, themed by the store layout.
import { createFileRoute } from '@tanstack/react-router';
import { ThankYouPage } from '../../../../components/thank-you.tsx';
import { IdParamSchema, requireParam } from '../../../../lib/route-params.ts';
import { useOrder } from '../../../../lib/use-order.ts';

export const Route = createFileRoute('/store/$slug/thank-you/$orderId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.orderId),
  component: function StoreThankYouRoute() {
    const { slug, orderId } = Route.useParams();
    const result = useOrder(orderId);
    return (
      <ThankYouPage
        result={result}
        home={`/store/${slug}/`}
        paymentBase={`/store/${slug}/payment/`}
      />
    );
  },
});
