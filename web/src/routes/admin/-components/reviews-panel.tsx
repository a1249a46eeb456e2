// The store's reviews for its owner: every review (hidden ones too) with its product and order,
// and Hide / Unhide. A review's text is the buyer's: the merchant cannot change it.
import { type MerchantReview, MerchantReviewSchema } from '@store/shared';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { ApiError, apiRequest, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import { Stars } from '../../store/$slug/-components/product-tabs.tsx';

const path = (segment: string) => encodeURIComponent(segment);

/** GET /api/stores/{id}/reviews. */
async function fetchStoreReviews(storeId: string): Promise<MerchantReview[]> {
  const answer = await apiRequest('GET', `/api/stores/${path(storeId)}/reviews`);
  return v.parse(v.array(MerchantReviewSchema), answer);
}

/** PATCH /api/reviews/{id}: hide or show again. */
async function setHidden(reviewId: string, hidden: boolean): Promise<MerchantReview> {
  const answer = await apiRequest(
    'PATCH',
    `/api/reviews/${path(reviewId)}`,
    { hidden },
    {
      idempotencyKey: newIdempotencyKey(),
    },
  );
  return v.parse(MerchantReviewSchema, answer);
}

/** The Reviews tab of a store (needs the network). */
export function ReviewsPanel(props: { storeId: string; canModerate?: boolean }) {
  const [reviews, setReviews] = useState<MerchantReview[] | null>();
  const [busy, setBusy] = useState<string>();

  useEffect(() => {
    let live = true;
    fetchStoreReviews(props.storeId).then(
      (list) => live && setReviews(list),
      () => live && setReviews(null),
    );
    return () => {
      live = false;
    };
  }, [props.storeId]);

  const toggle = async (review: MerchantReview) => {
    setBusy(review.id);
    try {
      const updated = await setHidden(review.id, review.hiddenAt === null);
      setReviews((list) => list?.map((r) => (r.id === updated.id ? updated : r)));
      toast({ title: updated.hiddenAt ? 'Review hidden' : 'Review shown again' });
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to update review',
        offline ? 'This needs a connection.' : errorText(error),
      );
    } finally {
      setBusy(undefined);
    }
  };

  if (reviews === undefined)
    return (
      <p className="loading" role="status">
        Loading reviews...
      </p>
    );
  if (reviews === null)
    return <p className="card muted">Reviews could not be loaded. Check your connection.</p>;
  return (
    <section className="card" aria-labelledby="store-reviews-title">
      <h2 id="store-reviews-title">Reviews</h2>
      <p className="muted small">
        Buyers review a product from the link in their receipt or order confirmation; each review
        comes from a paid order. You can hide a review from your storefront, not change it.
      </p>
      {reviews.length === 0 ? (
        <p>No reviews yet.</p>
      ) : (
        <ul className="admin-reviews">
          {reviews.map((review) => (
            <li key={review.id} className="review" data-testid="admin-review">
              <div className="admin-review-head">
                <Stars rating={review.rating} /> <strong>{review.productTitle}</strong> ·{' '}
                {review.authorName}
                {review.hiddenAt && <span className="badge"> Hidden</span>}
              </div>
              {review.title && <p className="review-title">{review.title}</p>}
              <p>{review.body}</p>
              <p className="muted small">
                Order #{review.orderId.slice(-8)} ·{' '}
                {new Date(review.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
              </p>
              {props.canModerate !== false && (
                <button
                  type="button"
                  className="button button-quiet"
                  disabled={busy === review.id}
                  onClick={() => void toggle(review)}
                >
                  {review.hiddenAt ? 'Unhide' : 'Hide'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
