// Reviews: a verified buyer posts one per order and product; everyone reads the visible ones of a
// product with their count and average; the store's owner lists them all and hides or shows one.

import {
  type CreateReview,
  isLinkOrder,
  isRevenueStatus,
  type MerchantReview,
  type ProductReviews,
  type PublicReview,
  REVIEW_MESSAGES,
} from '@store/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { orders, products, reviews } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import { authorizeStore, type Caller } from '../team/access.ts';
import type { ReviewPage } from './model.ts';

const publicColumns = {
  id: reviews.id,
  productId: reviews.productId,
  rating: reviews.rating,
  title: reviews.title,
  body: reviews.body,
  authorName: reviews.authorName,
  createdAt: reviews.createdAt,
};

type PublicRow = {
  id: string;
  productId: string;
  rating: number;
  title: string | null;
  body: string;
  authorName: string;
  createdAt: Date;
};

const toPublic = (row: PublicRow): PublicReview => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  // Note: every stored review came from a paid order holding the product (createReview).
  verifiedPurchase: true,
});

const notEligible = () => new AppError('validation_failed', REVIEW_MESSAGES.notEligible);

/**
 * Posts a review for a product of a paid order; the buyer's review token proves the purchase (the
 * order id alone does not: its merchant knows it). 422 when the token is not the order's, or the
 * order is unknown, unpaid or lacks the product; 409 when this order already reviewed it.
 */
export async function createReview(db: Database, input: CreateReview): Promise<PublicReview> {
  const [order] = await db
    .select({
      storeId: orders.storeId,
      source: orders.source,
      status: orders.status,
      items: orders.items,
      reviewToken: orders.reviewToken,
    })
    .from(orders)
    .where(eq(orders.id, input.orderId))
    .limit(1);
  if (!order || !isBuyerToken(order.reviewToken, input.token))
    throw new AppError('validation_failed', REVIEW_MESSAGES.linkInvalid);
  // Note: a link's item ids are the link's, not our catalogue's.
  if (!isRevenueStatus(order.status) || !order.storeId || isLinkOrder(order.source))
    throw notEligible();
  const productId = input.productId.toLowerCase();
  if (!order.items.some((item) => item.productId.toLowerCase() === productId)) throw notEligible();
  // Note: the product must still be the store's (a universal order's item ids are not products).
  const [product] = await db
    .select({ storeId: products.storeId })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.storeId, order.storeId)))
    .limit(1);
  if (!product) throw notEligible();
  try {
    const [created] = await db
      .insert(reviews)
      .values({
        storeId: product.storeId,
        productId,
        orderId: input.orderId,
        rating: input.rating,
        title: input.title ?? null,
        body: input.body,
        authorName: input.authorName,
      })
      .returning(publicColumns);
    return toPublic(created as PublicRow);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', REVIEW_MESSAGES.duplicate);
    throw error;
  }
}

/** The visible reviews of a product, newest first, with the count and average of all visible. */
export async function listProductReviews(
  db: Database,
  productId: string,
  page: ReviewPage,
): Promise<ProductReviews> {
  if (!isUuid(productId)) return { reviews: [], count: 0, averageRating: null };
  const visible = and(eq(reviews.productId, productId), isNull(reviews.hiddenAt));
  const [rows, [summary]] = await Promise.all([
    db
      .select(publicColumns)
      .from(reviews)
      .where(visible)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({
        count: sql<number>`count(*)::int`,
        average: sql<string | null>`round(avg(${reviews.rating}), 1)::text`,
      })
      .from(reviews)
      .where(visible),
  ]);
  return {
    reviews: rows.map(toPublic),
    count: summary?.count ?? 0,
    averageRating: summary?.average == null ? null : Number(summary.average),
  };
}

/** Every review of the merchant's store, hidden ones too, newest first; 404 for others' stores. */
export async function listStoreReviews(
  db: Database,
  caller: Caller,
  storeId: string,
  page: ReviewPage,
): Promise<MerchantReview[]> {
  await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const rows = await db
    .select({
      ...publicColumns,
      orderId: reviews.orderId,
      hiddenAt: reviews.hiddenAt,
      productTitle: products.title,
    })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .where(eq(reviews.storeId, storeId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(({ orderId, hiddenAt, productTitle, ...row }) => ({
    ...toPublic(row),
    orderId,
    productTitle,
    hiddenAt: hiddenAt?.toISOString() ?? null,
  }));
}

/** Hides a review of the merchant's store or shows it again; 404 for anyone else's. */
export async function setReviewHidden(
  db: Database,
  caller: Caller,
  reviewId: string,
  hidden: boolean,
): Promise<MerchantReview> {
  const notFound = new AppError('not_found', REVIEW_MESSAGES.notFound);
  if (!isUuid(reviewId)) throw notFound;
  const [review] = await db
    .select({ storeId: reviews.storeId })
    .from(reviews)
    .where(eq(reviews.id, reviewId))
    .limit(1);
  if (!review) throw notFound;
  await await getOwnStoreOrThrow(db, caller, review.storeId, 'read').catch(() => {
    throw notFound;
  });
  await authorizeStore(db, caller, review.storeId, 'operate');
  // Note: hiding twice keeps the first time; showing clears it.
  await db
    .update(reviews)
    .set({ hiddenAt: hidden ? sql`coalesce(${reviews.hiddenAt}, now())` : null })
    .where(eq(reviews.id, reviewId));
  const [updated] = await db
    .select({
      ...publicColumns,
      orderId: reviews.orderId,
      hiddenAt: reviews.hiddenAt,
      productTitle: products.title,
    })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .where(eq(reviews.id, reviewId));
  if (!updated) throw notFound;
  const { orderId, hiddenAt, productTitle, ...row } = updated;
  return { ...toPublic(row), orderId, productTitle, hiddenAt: hiddenAt?.toISOString() ?? null };
}
