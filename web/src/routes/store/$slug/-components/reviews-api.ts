// The storefront's review calls: a product's visible reviews, and posting a verified-purchase one.
import {
  type CreateReview,
  type ProductReviews,
  ProductReviewsSchema,
  type PublicReview,
  PublicReviewSchema,
} from '@store/shared';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { apiRequest, newIdempotencyKey } from '../../../../lib/api.ts';

/** GET /api/products/{id}/reviews: the newest visible reviews with their count and average. */
export async function fetchProductReviews(productId: string): Promise<ProductReviews> {
  const answer = await apiRequest('GET', `/api/products/${encodeURIComponent(productId)}/reviews`);
  return v.parse(ProductReviewsSchema, answer);
}

/** POST /api/reviews. */
export async function postReview(body: CreateReview): Promise<PublicReview> {
  const answer = await apiRequest('POST', '/api/reviews', body, {
    idempotencyKey: newIdempotencyKey(),
  });
  return v.parse(PublicReviewSchema, answer);
}

/** A product's reviews: undefined while loading, null when they could not be read. */
export function useProductReviews(productId: string): ProductReviews | null | undefined {
  const [state, setState] = useState<{ id: string; data: ProductReviews | null }>();
  useEffect(() => {
    let live = true;
    fetchProductReviews(productId).then(
      (data) => live && setState({ id: productId, data }),
      () => live && setState({ id: productId, data: null }),
    );
    return () => {
      live = false;
    };
  }, [productId]);
  return state?.id === productId ? state.data : undefined;
}
