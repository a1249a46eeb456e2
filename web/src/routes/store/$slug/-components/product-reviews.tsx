// The Reviews tab: real reviews from verified buyers only, each marked "Verified purchase", with
// their average; with none it says so and shows no rating. Reviews are written from the link in a
// buyer's receipt or thank-you page, so there is no open "Write Review" button here.
import { formatRating, type ProductReviews as Reviews } from '@store/shared';
import { Stars } from './product-tabs.tsx';

/** The rating beside the product title: only with at least one review. */
export function RatingSummary(props: { reviews: Reviews | null | undefined }) {
  const { reviews } = props;
  if (!reviews || reviews.count === 0 || reviews.averageRating === null) return null;
  return (
    <span className="rating-summary" data-testid="rating-summary">
      <Stars rating={reviews.averageRating} /> {formatRating(reviews.averageRating)} (
      {reviews.count} {reviews.count === 1 ? 'review' : 'reviews'}) ·{' '}
    </span>
  );
}

/** The tab's content. */
export function ProductReviews(props: { reviews: Reviews | null | undefined }) {
  const { reviews } = props;
  if (reviews === undefined) return <p className="muted">Loading reviews...</p>;
  if (reviews === null) return <p className="muted">Reviews could not be loaded.</p>;
  if (reviews.count === 0 || reviews.averageRating === null)
    return (
      <div className="reviews" data-testid="reviews">
        <p>No reviews yet.</p>
        <p className="muted small">
          Bought this? Your receipt and order confirmation have a link to review it.
        </p>
      </div>
    );
  return (
    <div className="reviews" data-testid="reviews">
      <p>
        <Stars rating={reviews.averageRating} /> {formatRating(reviews.averageRating)} out of 5 (
        {reviews.count} {reviews.count === 1 ? 'review' : 'reviews'})
      </p>
      <ul>
        {reviews.reviews.map((review) => (
          <li key={review.id} className="review">
            <Stars rating={review.rating} /> <strong>{review.authorName}</strong>{' '}
            <span className="badge badge-success">Verified purchase</span>
            {review.title && <p className="review-title">{review.title}</p>}
            <p>{review.body}</p>
            <p className="muted small">
              {new Date(review.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
