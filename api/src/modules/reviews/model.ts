// Request schemas of the review routes (the shapes live in shared/src/reviews.ts).
import { REVIEW_LIMITS } from '@store/shared';
import * as v from 'valibot';

const pageNumber = (name: string, min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
  );

/** Query of the review lists: pages of `limit` (default and most 50) from `offset`. */
export const ReviewPageQuery = v.object({
  limit: pageNumber('limit', 1, REVIEW_LIMITS.page),
  offset: pageNumber('offset', 0, 100_000_000),
});
/** A page of a review list. */
export type ReviewPage = { limit: number; offset: number };
