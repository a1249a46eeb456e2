// Discount codes: the merchant's codes with their figures (uses, paid orders, what they took off),
// and the check of a code for an order. A use is an order placed with the code that is paid (or
// later) or still pending within DISCOUNT_HOLD_MINUTES of being placed: a merchant's "100 uses"
// means 100 orders, and a shopper who placed an order has the time to pay it without someone else
// taking the last use meanwhile; an order left unpaid gives its use back. The code's row is locked
// (FOR UPDATE) while its uses are counted and the order written, so two shoppers racing for the
// last use are served one by one: one gets the order, the other "reached its usage limit".
import {
  DISCOUNT_HOLD_MINUTES,
  DISCOUNT_LIMITS,
  DISCOUNT_MESSAGES,
  type Discount,
  type DiscountInput,
  type DiscountRule,
  REVENUE_STATUSES,
} from '@store/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { discountCodes, products } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

type DiscountRow = typeof discountCodes.$inferSelect;

/** A stored code as the checkout applies it. */
export function ruleOf(row: DiscountRow): DiscountRule {
  return {
    code: row.code,
    kind: row.kind,
    percentBps: row.percentBps,
    amountUsdc: row.amountUsdc,
    minimumSubtotalUsdc: row.minimumSubtotalUsdc,
    productIds: row.productIds,
  };
}

/** SQL of a use: an order with the code, paid or later, or pending within its hold. */
const IN_USE = sql.raw(
  `(o.status <> 'pending' or o.created_at > now() - interval '${DISCOUNT_HOLD_MINUTES} minutes')`,
);
const REVENUE = sql.raw(`o.status in (${REVENUE_STATUSES.map((s) => `'${s}'`).join(', ')})`);

type FigureRow = {
  id: string;
  uses: number;
  paid_orders: number;
  discounted: string;
  revenue: string;
};

/** Each code's uses, paid orders and amounts, read from its orders. */
async function figuresOf(db: Executor, ids: readonly string[]): Promise<Map<string, FigureRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.execute<FigureRow>(sql`
    select o.discount_code_id as id,
      (count(*) filter (where ${IN_USE}))::int as uses,
      (count(*) filter (where ${REVENUE}))::int as paid_orders,
      coalesce(sum(o.discount_usdc) filter (where ${REVENUE}), 0)::numeric(12, 2)::text as discounted,
      coalesce(sum(o.total_usdc) filter (where ${REVENUE}), 0)::numeric(12, 2)::text as revenue
    from orders o
    where o.discount_code_id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
    group by o.discount_code_id`);
  return new Map([...rows].map((row) => [row.id, row]));
}

const iso = (time: Date | null) => (time ? time.toISOString() : null);

function toDiscount(row: DiscountRow, figures?: FigureRow): Discount {
  return {
    ...ruleOf(row),
    id: row.id,
    storeId: row.storeId,
    expiresAt: iso(row.expiresAt),
    maxUses: row.maxUses,
    maxUsesPerCustomer: row.maxUsesPerCustomer,
    isActive: row.isActive,
    uses: figures?.uses ?? 0,
    paidOrders: figures?.paid_orders ?? 0,
    discountedUsdc: figures?.discounted ?? '0.00',
    revenueUsdc: figures?.revenue ?? '0.00',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The merchant's codes of one store, newest first, with their figures; 404 for others' stores. */
export async function listDiscounts(
  db: Database,
  caller: Caller,
  storeId: string,
): Promise<Discount[]> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const rows = await db
    .select()
    .from(discountCodes)
    .where(eq(discountCodes.storeId, store.id))
    .orderBy(sql`${discountCodes.createdAt} desc, ${discountCodes.code}`);
  const figures = await figuresOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toDiscount(row, figures.get(row.id)));
}

/** The columns of a code from the merchant's input; 422 when a product is not the store's. */
async function columnsOf(db: Executor, storeId: string, input: DiscountInput) {
  const productIds = input.productIds?.length
    ? [...new Set(input.productIds.map((id) => id.toLowerCase()))]
    : null;
  if (productIds) {
    const found = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(
        and(
          eq(products.storeId, storeId),
          sql`${products.id} in (${sql.join(
            productIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
        ),
      );
    if ((found[0]?.n ?? 0) !== productIds.length)
      throw new AppError('validation_failed', DISCOUNT_MESSAGES.unknownProduct);
  }
  return {
    code: input.code,
    kind: input.kind,
    percentBps: input.kind === 'percent' ? (input.percentBps ?? null) : null,
    amountUsdc: input.kind === 'fixed' ? (input.amountUsdc ?? null) : null,
    minimumSubtotalUsdc: input.minimumSubtotalUsdc,
    productIds,
    expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    maxUses: input.maxUses ?? null,
    maxUsesPerCustomer: input.maxUsesPerCustomer ?? null,
    isActive: input.isActive,
  };
}

/** Runs `write`, answering 409 for a code the store already has. */
async function uniqueCode<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', DISCOUNT_MESSAGES.duplicate);
    throw error;
  }
}

/** Creates a code for the merchant's store; 409 on a code it has, 422 past the store's cap. */
export async function createDiscount(
  db: Database,
  caller: Caller,
  storeId: string,
  input: DiscountInput,
): Promise<Discount> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  const values = await columnsOf(db, store.id, input);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(discountCodes)
    .where(eq(discountCodes.storeId, store.id));
  if ((count?.n ?? 0) >= DISCOUNT_LIMITS.perStore)
    throw new AppError('validation_failed', DISCOUNT_MESSAGES.tooMany);
  const [row] = await uniqueCode(() =>
    db
      .insert(discountCodes)
      .values({ ...values, storeId: store.id })
      .returning(),
  );
  if (!row) throw new Error('the discount insert returned no row');
  return toDiscount(row);
}

/** The merchant's code of the store; 404 for unknown ids and other merchants' codes alike. */
async function ownDiscountOrThrow(db: Database, caller: Caller, storeId: string, id: string) {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  if (!isUuid(id)) throw new AppError('not_found', DISCOUNT_MESSAGES.notFound);
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.id, id), eq(discountCodes.storeId, store.id)))
    .limit(1);
  if (!row) throw new AppError('not_found', DISCOUNT_MESSAGES.notFound);
  return row;
}

/** Replaces a code's settings (deactivating it too); orders placed with it keep what they got. */
export async function updateDiscount(
  db: Database,
  caller: Caller,
  storeId: string,
  id: string,
  input: DiscountInput,
): Promise<Discount> {
  const current = await ownDiscountOrThrow(db, caller, storeId, id);
  const values = await columnsOf(db, current.storeId, input);
  const [row] = await uniqueCode(() =>
    db
      .update(discountCodes)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(discountCodes.id, current.id))
      .returning(),
  );
  if (!row) throw new AppError('not_found', DISCOUNT_MESSAGES.notFound);
  const figures = await figuresOf(db, [row.id]);
  return toDiscount(row, figures.get(row.id));
}

/** Deletes a code; its orders keep the code's text and amount (they lose only the link). */
export async function deleteDiscount(
  db: Database,
  caller: Caller,
  storeId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const current = await ownDiscountOrThrow(db, caller, storeId, id);
  await db.delete(discountCodes).where(eq(discountCodes.id, current.id));
  return { id: current.id, deleted: true };
}

/**
 * The store's code `code` if a shopper may use it now: 422 with the shopper's message when it is
 * unknown, inactive, expired or used up (in all, or by `customerEmail` when given). With `lock`,
 * inside the order's transaction, the code's row stays locked until the order is written.
 */
export async function usableDiscount(
  db: Executor,
  storeId: string,
  code: string,
  customerEmail: string | undefined,
  lock = false,
): Promise<{ id: string; rule: DiscountRule }> {
  const refuse = (message: string) => new AppError('validation_failed', message);
  if (!isUuid(storeId)) throw refuse(DISCOUNT_MESSAGES.unknown);
  const rows = await db.execute<{ id: string }>(sql`
    select id from discount_codes
    where store_id = ${storeId}::uuid and code = ${code.trim().toUpperCase()}
    ${lock ? sql`for update` : sql``}`);
  const id = [...rows][0]?.id;
  if (!id) throw refuse(DISCOUNT_MESSAGES.unknown);
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id)).limit(1);
  if (!row) throw refuse(DISCOUNT_MESSAGES.unknown);
  if (!row.isActive) throw refuse(DISCOUNT_MESSAGES.inactive);
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now())
    throw refuse(DISCOUNT_MESSAGES.expired);
  if (row.maxUses !== null || (row.maxUsesPerCustomer !== null && customerEmail)) {
    const [uses] = [
      ...(await db.execute<{ uses: number; customer_uses: number }>(sql`
        select count(*)::int as uses,
          (count(*) filter (where lower(o.customer_email) = lower(${customerEmail ?? ''})))::int
            as customer_uses
        from orders o where o.discount_code_id = ${row.id}::uuid and ${IN_USE}`)),
    ];
    if (row.maxUses !== null && (uses?.uses ?? 0) >= row.maxUses)
      throw refuse(DISCOUNT_MESSAGES.usedUp);
    if (
      row.maxUsesPerCustomer !== null &&
      customerEmail &&
      (uses?.customer_uses ?? 0) >= row.maxUsesPerCustomer
    )
      throw refuse(DISCOUNT_MESSAGES.usedByCustomer);
  }
  return { id: row.id, rule: ruleOf(row) };
}
