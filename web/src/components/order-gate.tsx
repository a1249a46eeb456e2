// The states of an order page before its order is there: loading, not found and unreachable.
import { ORDER_NOT_FOUND, type Order } from '@store/shared';
import type { ReactNode } from 'react';
import type { OrderState } from '../lib/use-order.ts';
import { LoadingPage, NotFoundCard, OfflineCard } from './message-card.tsx';

/** Renders `children` with the order once it is ready, the page of its other states until then. */
export function OrderGate(props: {
  result: OrderState;
  /** The not-found card's text, which differs by page. */
  notFoundDescription: string;
  children: (order: Order) => ReactNode;
}) {
  const { result } = props;
  if (result.state === 'loading') return <LoadingPage text="Loading order..." />;
  if (result.state === 'failed') return <OfflineCard what="order" error={result.error} />;
  if (result.state === 'not-found')
    return <NotFoundCard title={ORDER_NOT_FOUND.title} description={props.notFoundDescription} />;
  return props.children(result.order);
}
