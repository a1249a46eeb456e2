// Routes: POST /api/reviews, GET /api/products/{id}/reviews, GET /api/stores/{id}/reviews,
// PATCH /api/reviews/{id}
import {
  CreateReviewSchema,
  MerchantReviewSchema,
  ProductReviewsSchema,
  PublicReviewSchema,
  REVIEW_LIMITS,
  UpdateReviewSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { ReviewPageQuery } from './model.ts';
import { createReview, listProductReviews, listStoreReviews, setReviewHidden } from './service.ts';

const tags = ['reviews'];
const review = registerResponseSchema('Review', PublicReviewSchema);
const productReviews = registerResponseSchema('ProductReviews', ProductReviewsSchema);
const merchantReview = registerResponseSchema('MerchantReview', MerchantReviewSchema);
// Note: the merchant list is capped like a page; the storefront pages through the public one.
const pageOf = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit ?? REVIEW_LIMITS.page,
  offset: query.offset ?? 0,
});

/** Verified-purchase reviews: posted by buyers, read by everyone, hidden or shown by the owner. */
export const reviewsModule = ({ db }: AppDeps) => {
  return new Elysia({ name: 'reviews' })
    .use(accessPlugin(db))
    .post(
      '/api/reviews',
      async ({ body, set }) => {
        const created = await createReview(db, body);
        set.status = 201;
        return created;
      },
      {
        body: CreateReviewSchema,
        ...contract({
          tags,
          summary:
            'Review a product of your paid order (its review token, from the checkout or the receipt, proves the purchase); one per order and product',
          ok: { 201: review },
          errors: ['already_exists'],
        }),
      },
    )
    .get(
      '/api/products/:id/reviews',
      ({ params, query }) => listProductReviews(db, params.id, pageOf(query)),
      {
        query: ReviewPageQuery,
        ...contract({
          tags,
          summary: "A product's visible reviews, newest first, with their count and average rating",
          ok: { 200: productReviews },
        }),
      },
    )
    .get(
      '/api/stores/:id/reviews',
      async ({ params, query, user }) => listStoreReviews(db, user, params.id, pageOf(query)),
      {
        query: ReviewPageQuery,
        access: 'merchant',
        ...contract({
          tags,
          summary: "Your store's reviews, hidden ones too, newest first",
          ok: { 200: v.array(merchantReview) },
          errors: ['not_found'],
        }),
      },
    )
    .patch(
      '/api/reviews/:id',
      async ({ params, body, user }) => setReviewHidden(db, user, params.id, body.hidden),
      {
        body: UpdateReviewSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary: "Hide a review of your store or show it again (its text can't be changed)",
          ok: { 200: merchantReview },
          errors: ['not_found'],
        }),
      },
    );
};
