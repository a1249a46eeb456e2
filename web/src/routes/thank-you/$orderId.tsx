// Route /thank-you/{orderId}: the order confirmation. Theme: a universal order's own colours,
// otherwise the first store with the light theme, else the first store (docs/screens.md#themes).
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { OrderDownloads } from '../../components/order-downloads.tsx';
import { RefundClaimNotice } from '../../components/refund-claim-notice.tsx';
import { ThankYouPage } from '../../components/thank-you.tsx';
import { pickThankYouStore, themeOfOrder } from '../../lib/order-theme.ts';
import { IdParamSchema, requireParam } from '../../lib/route-params.ts';
import { fetchStores } from '../../lib/shop-api.ts';
import { type StoreTheme, useStoreTheme } from '../../lib/theme.ts';
import { useOrder } from '../../lib/use-order.ts';

export const Route = createFileRoute('/thank-you/$orderId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.orderId),
  component: ThankYouRoute,
});

function ThankYouRoute() {
  const { orderId } = Route.useParams();
  const order = useOrder(orderId);
  const [listTheme, setListTheme] = useState<StoreTheme>();
  const universal = order.state === 'ready' ? themeOfOrder(order.order) : undefined;
  const needsList = order.state === 'ready' && !universal;
  useEffect(() => {
    if (!needsList) return;
    let live = true;
    fetchStores().then(
      (stores) => live && setListTheme(pickThankYouStore(stores) ?? {}),
      () => live && setListTheme({}),
    );
    return () => {
      live = false;
    };
  }, [needsList]);
  useStoreTheme(universal ?? listTheme);
  return (
    <>
      <ThankYouPage result={order} home="/" paymentBase="/payment/" />
      {order.state === 'ready' && <OrderDownloads orderId={orderId} status={order.order.status} />}
      <RefundClaimNotice orderId={orderId} />
    </>
  );
}
