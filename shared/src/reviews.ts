// Product reviews by verified buyers: what a shopper with a paid order of the product may post
// (one per order and product), what everyone reads, and what the merchant sees (and may hide).
import * as v from 'valibot';
import { maxChars } from './limits.ts';
import { missingAsEmpty } from './schemas/common.ts';

/** Caps of a review's texts and of a page of reviews. */
export const REVIEW_LIMITS = {
  title: 120,
  body: 2_000,
  authorName: 60,
  page: 50,
} as const;

/** Messages of the review form and the review routes. */
export const REVIEW_MESSAGES = {
  rating: 'Choose a rating from 1 to 5 stars',
  bodyRequired: 'Write a few words about the product',
  nameRequired: 'Your name is required',
  orderRequired: 'The order is required',
  productRequired: 'The product is required',
  /** The order is unknown, not paid, or does not hold the product. */
  notEligible: 'Only a paid order that contains this product can review it',
  duplicate: 'This order has already reviewed this product',
  notFound: 'Review not found',
  /** The link lacks the buyer's token, or carries one that is not this order's. */
  linkInvalid: 'This review link is not valid. Open the link in your receipt email',
} as const;
const M = REVIEW_MESSAGES;

const requiredText = (message: string, label: string, max: number) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), maxChars(label, max));

/** A buyer's review token: 64 hexadecimal characters (see the orders table). */
export const REVIEW_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

const uuid = (message: string) => v.pipe(v.string(message), v.trim(), v.uuid(message));

/** The review form as the shopper fills it (the order and product come from the link). */
export const ReviewFormSchema = v.object({
  rating: v.pipe(
    v.number(M.rating),
    v.integer(M.rating),
    v.minValue(1, M.rating),
    v.maxValue(5, M.rating),
  ),
  // Note: nullish, so that the form's parsed value (an empty title is null) posts as it is.
  title: v.nullish(
    v.pipe(
      v.string(),
      v.trim(),
      maxChars('Title', REVIEW_LIMITS.title),
      v.transform((s) => (s === '' ? null : s)),
    ),
  ),
  body: requiredText(M.bodyRequired, 'Review', REVIEW_LIMITS.body),
  authorName: requiredText(M.nameRequired, 'Name', REVIEW_LIMITS.authorName),
});
/** The review form's values. */
export type ReviewFormInput = v.InferInput<typeof ReviewFormSchema>;

/**
 * Body of POST /api/reviews. Note: the order id alone proves nothing (the merchant knows it too);
 * the review token does: only the browser that placed the order and the receipt carry it.
 */
export const CreateReviewSchema = v.object({
  ...ReviewFormSchema.entries,
  orderId: uuid(M.orderRequired),
  productId: uuid(M.productRequired),
  /** The buyer's proof of purchase: the order's review token from its receipt or checkout. */
  token: v.pipe(
    missingAsEmpty(M.linkInvalid),
    v.trim(),
    v.regex(REVIEW_TOKEN_PATTERN, M.linkInvalid),
  ),
});
/** A validated review to post. */
export type CreateReview = v.InferOutput<typeof CreateReviewSchema>;

/** A review as everyone reads it: always from a paid order of the product. */
export const PublicReviewSchema = v.object({
  id: v.string(),
  productId: v.string(),
  rating: v.number(),
  title: v.nullable(v.string()),
  body: v.string(),
  authorName: v.string(),
  createdAt: v.string(),
  verifiedPurchase: v.literal(true),
});
/** A review as everyone reads it. */
export type PublicReview = v.InferOutput<typeof PublicReviewSchema>;

/** GET /api/products/{id}/reviews: a page of the visible reviews, their count and average. */
export const ProductReviewsSchema = v.object({
  reviews: v.array(PublicReviewSchema),
  count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Average of the visible reviews, one decimal; null with none. */
  averageRating: v.nullable(v.number()),
});
/** A product's reviews. */
export type ProductReviews = v.InferOutput<typeof ProductReviewsSchema>;

/** A review as the store's owner sees it: with its order, product title and whether it is hidden. */
export const MerchantReviewSchema = v.object({
  ...PublicReviewSchema.entries,
  orderId: v.string(),
  productTitle: v.string(),
  hiddenAt: v.nullable(v.string()),
});
/** A review in the merchant's list. */
export type MerchantReview = v.InferOutput<typeof MerchantReviewSchema>;

/** Body of PATCH /api/reviews/{id}: hide or show again (the merchant cannot edit a review). */
export const UpdateReviewSchema = v.object({
  hidden: v.boolean('hidden must be true or false'),
});

/**
 * The storefront path of the review form for one product of an order; the buyer's review token
 * rides in the fragment, so it reaches no server log or Referer.
 */
export function reviewFormPath(
  slug: string,
  orderId: string,
  productId: string,
  token: string,
): string {
  return `/store/${encodeURIComponent(slug)}/review/${encodeURIComponent(orderId)}/${encodeURIComponent(productId)}#token=${encodeURIComponent(token)}`;
}

/** An average rating for people: one decimal ("4.5"). */
export function formatRating(average: number): string {
  return average.toFixed(1);
}
