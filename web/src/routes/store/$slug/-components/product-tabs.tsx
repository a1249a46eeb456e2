// The product page's Description / Reviews / Shipping tabs (SPEC §2). Reviews are the spec's
// static placeholder: three sample reviews, their average and a 'Write Review' button.
import { RETURN_POLICY_DAYS, SHIPPING_METHODS, SHIPPING_OPTIONS } from '@store/shared';
import { StarIcon } from '../../../../components/icons.tsx';
import { Tabs } from '../../../../components/tabs.tsx';
import { usdc } from '../../../../lib/format.ts';

const SAMPLE_REVIEWS = [
  {
    author: 'Alex M.',
    rating: 5,
    text: 'Exactly as described, and paying with USDC took seconds.',
  },
  { author: 'Jordan K.', rating: 4, text: 'Good quality. Shipping took about a week.' },
  { author: 'Sam R.', rating: 5, text: 'Smooth checkout, no account needed. Would buy again.' },
] as const;

/** Average of the sample reviews, one decimal. */
export const SAMPLE_AVERAGE_RATING = (
  SAMPLE_REVIEWS.reduce((sum, review) => sum + review.rating, 0) / SAMPLE_REVIEWS.length
).toFixed(1);

function Stars(props: { rating: number }) {
  return (
    <span className="stars" role="img" aria-label={`${props.rating} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((star) => (
        <StarIcon
          key={star}
          size="1em"
          aria-hidden="true"
          fill={star <= Math.round(props.rating) ? 'currentColor' : 'none'}
        />
      ))}
    </span>
  );
}

/** The three tabs of a product. */
export function ProductTabs(props: { description?: string | null }) {
  return (
    <Tabs
      label="Product details"
      tabs={[
        {
          id: 'description',
          label: 'Description',
          content: <p>{props.description || 'No description provided.'}</p>,
        },
        {
          id: 'reviews',
          label: 'Reviews',
          content: (
            <div className="reviews">
              <p>
                <Stars rating={Number(SAMPLE_AVERAGE_RATING)} /> {SAMPLE_AVERAGE_RATING} out of 5 (
                {SAMPLE_REVIEWS.length} reviews)
              </p>
              <ul>
                {SAMPLE_REVIEWS.map((review) => (
                  <li key={review.author} className="review">
                    <Stars rating={review.rating} /> <strong>{review.author}</strong>
                    <p>{review.text}</p>
                  </li>
                ))}
              </ul>
              <button type="button" className="button button-quiet">
                Write Review
              </button>
            </div>
          ),
        },
        {
          id: 'shipping',
          label: 'Shipping',
          content: (
            <div>
              <ul>
                {SHIPPING_METHODS.map((method) => (
                  <li key={method}>
                    <strong>{SHIPPING_OPTIONS[method].label}</strong> (
                    {SHIPPING_OPTIONS[method].delivery}):{' '}
                    {method === 'free' ? 'free' : usdc(SHIPPING_OPTIONS[method].priceUsdc)}
                  </li>
                ))}
              </ul>
              <p className="muted">
                Returns accepted within {RETURN_POLICY_DAYS} days of delivery.
              </p>
            </div>
          ),
        },
      ]}
    />
  );
}

export { Stars };
