// "Review your items" under a paid store order's confirmation: one link a product to its review
// form, carrying the buyer's review token this browser kept when it placed the order (the proof of
// purchase). Another browser has none and points to the receipt's links instead.
import { isLinkOrder, isRevenueStatus, type Order, reviewFormPath } from '@store/shared';
import { reviewTokenOf } from '../../../../lib/review-tokens.ts';
import type { OrderState } from '../../../../lib/use-order.ts';

/** Links to review each product of a paid order of this store; nothing otherwise. */
export function ReviewLinks(props: { result: OrderState; slug: string; storeId?: string }) {
  if (props.result.state !== 'ready') return null;
  const order: Order = props.result.order;
  if (!isRevenueStatus(order.status) || isLinkOrder(order.source)) return null;
  if (props.storeId && order.storeId !== props.storeId) return null;
  const products = [...new Map(order.items.map((item) => [item.productId, item])).values()];
  const token = reviewTokenOf(order.id);
  return (
    <section className="page review-links" aria-labelledby="review-links-title">
      <div className="card">
        <h2 id="review-links-title">Review your items</h2>
        <p className="muted small">
          Tell other shoppers what you think. Your review is marked as a verified purchase.
        </p>
        {token ? (
          <ul>
            {products.map((item) => (
              <li key={item.productId}>
                <a href={reviewFormPath(props.slug, order.id, item.productId, token)}>
                  Review {item.title}
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="small">The links to review your items are in your receipt email.</p>
        )}
      </div>
    </section>
  );
}
