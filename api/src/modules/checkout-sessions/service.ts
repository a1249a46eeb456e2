// Checkout sessions: an integrator's server fixes the items, prices and URLs of one hosted checkout
// (with its API key); the shopper fills in their details on our page, and the session becomes a
// store order of the integrator's store, paid to its payout address like any store order.
import {
  CHECKOUT_SESSION_EXPIRY,
  CHECKOUT_SESSION_MESSAGES,
  type CheckoutSessionStatus,
  type CheckoutSessionStoredStatus,
  type CompleteCheckoutSession,
  type CreateCheckoutSession,
  checkoutSessionTotal,
  type DiscountLine,
  type DiscountRule,
  discountAmount,
  discountRefusal,
  formatUsdc,
  isRevenueStatus,
  multiplyUsdc,
  type OrderItem,
  type PaymentState,
  parseUsdc,
  type SessionCustomer,
  type SessionItem,
  type SessionShippingOption,
  type SessionTheme,
  shippingAddressFromForm,
  sumUsdc,
} from '@store/shared';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { checkoutSessions, orders, paymentWallets, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { randomBase62 } from '../api-keys/service.ts';
import { usableDiscount } from '../discounts/service.ts';
import {
  authorizeStore,
  type Caller,
  memberStore,
  membershipOf,
  requirePermission,
} from '../team/access.ts';

const M = CHECKOUT_SESSION_MESSAGES;
/** Path of the hosted checkout of a session, on the web app's origin. */
export const hostedCheckoutPath = (id: string) => `/pay/${id}`;
/** Random characters of a session id after `cs_` (about 238 bits: the id is the capability). */
const SESSION_ID_RANDOM_LENGTH = 40;
const SESSION_ID_PATTERN = /^cs_[0-9A-Za-z]{20,64}$/;
// decimal(10,2): the largest amount an order can carry.
const MAX_AMOUNT = parseUsdc('99999999.99');

type SessionRow = typeof checkoutSessions.$inferSelect;

/** A fresh session id: `cs_` and random base62. */
export function newSessionId(): string {
  return `cs_${randomBase62(SESSION_ID_RANDOM_LENGTH)}`;
}

/** Σ price × quantity of the session's lines. */
function subtotalOf(items: readonly SessionItem[]) {
  return sumUsdc(items.map((item) => multiplyUsdc(parseUsdc(item.priceUsdc), item.quantity)));
}

/** The session's lines as a discount reads them (an integrator's line may name no product). */
const discountLinesOf = (items: readonly SessionItem[]): DiscountLine[] =>
  items.map((item) => ({
    productId: item.productId ?? '',
    priceUsdc: item.priceUsdc,
    quantity: item.quantity,
  }));

/**
 * The lowest and the highest shipping price offered (both 0 when none is offered: nothing is
 * charged for it): the session's total lies between the totals with each.
 */
function shippingRange(options: readonly { priceUsdc: string }[]) {
  const prices = options.map((option) => parseUsdc(option.priceUsdc)).sort((a, b) => Number(a - b));
  return { cheapest: prices[0] ?? 0n, dearest: prices.at(-1) ?? 0n };
}

/** What `rule` takes off the lines; 422 with the shopper's message when it cannot apply to them. */
function discountOn(items: readonly SessionItem[], rule: DiscountRule) {
  const lines = discountLinesOf(items);
  const refusal = discountRefusal(lines, rule);
  if (refusal) throw new AppError('validation_failed', refusal);
  return discountAmount(lines, rule);
}

/** Creates an open session for the merchant's store; 404 for a store not theirs. */
export async function createCheckoutSession(
  db: Database,
  caller: Caller,
  body: CreateCheckoutSession,
  publicOrigin: string,
) {
  const storeId = body.storeId.toLowerCase();
  const [store] = isUuid(storeId)
    ? await db
        .select({ isActive: stores.isActive, paymentAddress: stores.paymentAddress })
        .from(stores)
        .where(and(eq(stores.id, storeId), memberStore(caller, sql`${stores.id}`)))
        .limit(1)
    : [];
  if (!store) throw new AppError('not_found', M.storeNotFound);
  await authorizeStore(db, caller, storeId, 'operate');
  if (!store.paymentAddress) throw new AppError('validation_failed', M.noPayoutAddress);
  if (!store.isActive) throw new AppError('validation_failed', M.storeClosed);
  const subtotal = subtotalOf(body.items);
  const tax = parseUsdc(body.taxUsdc ?? '0');
  // Note: amounts are stored in their 2-decimal form ("0" -> "0.00"), as orders show them.
  const money = (amount: string) => formatUsdc(parseUsdc(amount));
  const items = body.items.map((item) => ({ ...item, priceUsdc: money(item.priceUsdc) }));
  const shippingOptions = (body.shippingOptions ?? []).map((option) => ({
    ...option,
    priceUsdc: money(option.priceUsdc),
  }));
  const shipping = shippingRange(shippingOptions);
  // A code is checked now (the integrator hears why it cannot apply) and again, under its lock,
  // when the shopper's order is made (discounts/service.ts: uses are orders).
  const discount = body.discountCode
    ? await usableDiscount(db, storeId, body.discountCode, body.customer?.email || undefined)
    : undefined;
  const off = discount ? discountOn(items, discount.rule) : 0n;
  if (checkoutSessionTotal(subtotal, off, shipping.dearest, tax) > MAX_AMOUNT)
    throw new AppError('validation_failed', M.totalTooLarge);
  // Note: a code that takes off everything, with no tax and a free way to ship, leaves nothing
  // to pay: there would be no payment to wait for, so no such session is made.
  if (checkoutSessionTotal(subtotal, off, shipping.cheapest, tax) <= 0n)
    throw new AppError('validation_failed', M.zeroTotal);
  const id = newSessionId();
  const seconds = body.expiresInSeconds ?? CHECKOUT_SESSION_EXPIRY.default;
  const [created] = await db
    .insert(checkoutSessions)
    .values({
      id,
      userId: caller.id,
      storeId,
      items,
      shippingOptions,
      subtotalUsdc: formatUsdc(subtotal),
      taxUsdc: formatUsdc(tax),
      discountCode: discount?.rule.code ?? null,
      discountUsdc: formatUsdc(off),
      currency: 'USDC',
      externalOrderId: body.externalOrderId || null,
      returnUrl: body.returnUrl ?? null,
      cancelUrl: body.cancelUrl ?? null,
      customer: body.customer ?? null,
      theme: body.theme ?? null,
      metadata: body.metadata ?? null,
      expiresAt: sql`now() + make_interval(secs => ${seconds})`,
    })
    .returning({ expiresAt: checkoutSessions.expiresAt });
  return { id, url: publicOrigin + hostedCheckoutPath(id), expiresAt: created?.expiresAt };
}

/**
 * The session's stored status now: an open session past its expiry is marked expired (once) here,
 * so every reader sees the same state.
 */
async function settleExpiry(db: Database, row: SessionRow): Promise<CheckoutSessionStoredStatus> {
  if (row.status !== 'open' || row.expiresAt.getTime() > Date.now()) return row.status;
  await db
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(
      and(
        eq(checkoutSessions.id, row.id),
        eq(checkoutSessions.status, 'open'),
        lt(checkoutSessions.expiresAt, sql`now()`),
      ),
    );
  return 'expired';
}

/** What the session's order says of its payment: the order's status and its deposit wallet's. */
interface SessionOrderState {
  status: string;
  paymentStatus: PaymentState | null;
  paidAt: Date | null;
}

/**
 * The status the API reports, from what is stored and the order: a submitted session is completed
 * only once its order is paid (and again awaiting payment if that payment left the chain); its
 * order's payment window closing unpaid expires it.
 */
export function reportedStatus(
  stored: CheckoutSessionStoredStatus,
  order: SessionOrderState | undefined,
): CheckoutSessionStatus {
  if (stored !== 'submitted') return stored;
  if (order && isRevenueStatus(order.status)) return 'completed';
  if (order?.paymentStatus === 'expired') return 'expired';
  return 'awaiting_payment';
}

async function sessionOrder(db: Database, orderId: string | null) {
  if (!orderId) return undefined;
  const [order] = await db
    .select({
      id: orders.id,
      status: orders.status,
      totalUsdc: orders.totalUsdc,
      paymentStatus: paymentWallets.status,
      paidAt: paymentWallets.paymentReceivedAt,
      paymentTxHash: sql<
        string | null
      >`coalesce(${orders.paymentTxHash}, ${paymentWallets.depositTxHash})`,
    })
    .from(orders)
    .leftJoin(paymentWallets, eq(paymentWallets.orderId, orders.id))
    .where(eq(orders.id, orderId))
    .limit(1);
  return order
    ? { ...order, paymentStatus: order.paymentStatus ?? null, paidAt: order.paidAt ?? null }
    : undefined;
}

async function findSession(db: Database, id: string) {
  if (!SESSION_ID_PATTERN.test(id)) return undefined;
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row;
}

/** The session as its owner reads it, with its order and payment state once created. */
export async function getCheckoutSession(
  db: Database,
  caller: Caller,
  id: string,
  publicOrigin: string,
) {
  const row = await findSession(db, id);
  // Note: the store's session, read by its team (not only the member who made it); the store's
  // 404 for anyone else, as for a session that does not exist.
  const member = row ? await membershipOf(db, caller, row.storeId) : null;
  if (!row || !member) throw new AppError('not_found', M.notFound);
  requirePermission(member, 'read');
  const order = await sessionOrder(db, row.orderId);
  const status = reportedStatus(await settleExpiry(db, row), order);
  return {
    id: row.id,
    url: publicOrigin + hostedCheckoutPath(row.id),
    status,
    storeId: row.storeId,
    items: row.items as SessionItem[],
    shippingOptions: row.shippingOptions as SessionShippingOption[],
    subtotalUsdc: row.subtotalUsdc,
    discountCode: row.discountCode,
    discountUsdc: row.discountUsdc,
    taxUsdc: row.taxUsdc,
    currency: 'USDC' as const,
    externalOrderId: row.externalOrderId,
    returnUrl: row.returnUrl,
    cancelUrl: row.cancelUrl,
    customer: row.customer as SessionCustomer | null,
    theme: row.theme as SessionTheme | null,
    metadata: row.metadata as Record<string, string> | null,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    submittedAt: row.completedAt,
    completedAt: status === 'completed' ? (order?.paidAt ?? null) : null,
    order: order
      ? {
          id: order.id,
          status: order.status,
          totalUsdc: order.totalUsdc,
          paymentStatus: order.paymentStatus,
          paymentTxHash: order.paymentTxHash ?? null,
        }
      : null,
  };
}

/** What the hosted checkout shows: items, amounts, the store's look; nothing of the owner's. */
export async function getPublicCheckoutSession(db: Database, id: string) {
  const row = await findSession(db, id);
  if (!row) throw new AppError('not_found', M.notFound);
  const status = reportedStatus(await settleExpiry(db, row), await sessionOrder(db, row.orderId));
  const [store] = await db
    .select({
      name: stores.name,
      logoUrl: stores.logoUrl,
      theme: stores.theme,
      primaryColor: stores.primaryColor,
      secondaryColor: stores.secondaryColor,
      accentColor: stores.accentColor,
    })
    .from(stores)
    .where(eq(stores.id, row.storeId));
  if (!store) throw new AppError('not_found', M.notFound);
  const theme = (row.theme ?? {}) as SessionTheme;
  return {
    id: row.id,
    status,
    store: {
      name: store.name,
      logoUrl: theme.logoUrl ?? store.logoUrl ?? null,
      theme: theme.mode ?? (store.theme === 'light' ? 'light' : 'dark'),
      primaryColor: theme.primaryColor ?? store.primaryColor,
      secondaryColor: theme.secondaryColor ?? store.secondaryColor,
      accentColor: theme.accentColor ?? store.accentColor,
    },
    items: row.items as SessionItem[],
    shippingOptions: row.shippingOptions as SessionShippingOption[],
    subtotalUsdc: row.subtotalUsdc,
    discountCode: row.discountCode,
    discountUsdc: row.discountUsdc,
    taxUsdc: row.taxUsdc,
    currency: 'USDC' as const,
    customer: row.customer as SessionCustomer | null,
    returnUrl: row.returnUrl,
    cancelUrl: row.cancelUrl,
    expiresAt: row.expiresAt,
    orderId: row.status === 'submitted' ? row.orderId : null,
  };
}

/** The shipping option the shopper chose: required and one of the session's when it offers any. */
function chosenShipping(row: SessionRow, id: string | undefined) {
  const options = row.shippingOptions as SessionShippingOption[];
  if (options.length === 0) return undefined;
  if (!id) throw new AppError('validation_failed', M.shippingRequired);
  const option = options.find((o) => o.id === id);
  if (!option) throw new AppError('validation_failed', M.shippingUnknown);
  return option;
}

/**
 * The shopper submits the hosted checkout: creates the store order from the session's stored items
 * and prices (never the browser's) and completes the session with it, once; a second submission
 * returns the same order.
 */
export async function completeCheckoutSession(
  db: Database,
  id: string,
  form: CompleteCheckoutSession,
): Promise<{ orderId: string; reviewToken?: string }> {
  if (!SESSION_ID_PATTERN.test(id)) throw new AppError('not_found', M.notFound);
  return db.transaction(async (tx) => {
    // Note: the row lock makes two submissions at once create one order between them.
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, id))
      .for('update');
    if (!row) throw new AppError('not_found', M.notFound);
    if (row.status === 'submitted' && row.orderId) return { orderId: row.orderId };
    if (row.status !== 'open' || row.expiresAt.getTime() <= Date.now()) {
      await tx
        .update(checkoutSessions)
        .set({ status: 'expired' })
        .where(eq(checkoutSessions.id, id));
      throw new AppError('invalid_state', M.expired);
    }
    const [store] = await tx
      .select({ isActive: stores.isActive, paymentAddress: stores.paymentAddress })
      .from(stores)
      .where(eq(stores.id, row.storeId));
    if (!store?.isActive) throw new AppError('validation_failed', M.storeClosed);
    if (!store.paymentAddress) throw new AppError('validation_failed', M.noPayoutAddress);
    const shipping = chosenShipping(row, form.shippingOptionId);
    const shippingAmount = parseUsdc(shipping?.priceUsdc ?? '0');
    const subtotal = parseUsdc(row.subtotalUsdc);
    const sessionItems = row.items as SessionItem[];
    // The session's code is checked again here, its row locked until this order is written, so
    // its last use goes to one order (and the amount is the code's now, never the browser's).
    const discount = row.discountCode
      ? await usableDiscount(tx, row.storeId, row.discountCode, form.customerEmail, true)
      : undefined;
    const off = discount ? discountOn(sessionItems, discount.rule) : 0n;
    const total = checkoutSessionTotal(subtotal, off, shippingAmount, parseUsdc(row.taxUsdc));
    if (total <= 0n) throw new AppError('validation_failed', M.zeroTotal);
    const items = sessionItems.map(
      (item, index): OrderItem => ({
        productId: item.productId || `${row.id}-${index + 1}`,
        title: item.title,
        priceUsdc: formatUsdc(parseUsdc(item.priceUsdc)),
        quantity: item.quantity,
        imageUrl: item.imageUrl ?? null,
        // Note: the integrator's lines are not our catalogue's: no stock is counted or taken.
        stockTracked: false,
      }),
    );
    const [order] = await tx
      .insert(orders)
      .values({
        storeId: row.storeId,
        source: 'checkout_session',
        customerEmail: form.customerEmail,
        shippingAddress: shippingAddressFromForm(form),
        items,
        subtotalUsdc: formatUsdc(subtotal),
        shippingUsdc: formatUsdc(shippingAmount),
        taxUsdc: formatUsdc(parseUsdc(row.taxUsdc)),
        totalUsdc: formatUsdc(total),
        ...(discount
          ? {
              discountCode: discount.rule.code,
              discountUsdc: formatUsdc(off),
              discountCodeId: discount.id,
            }
          : {}),
        status: 'pending',
        metadata: {
          externalOrderId: row.externalOrderId,
          checkoutSessionId: row.id,
        },
      })
      .returning({ id: orders.id, reviewToken: orders.reviewToken });
    if (!order) throw new Error('order insert returned nothing');
    await tx
      .update(checkoutSessions)
      .set({ status: 'submitted', orderId: order.id, completedAt: sql`now()` })
      .where(eq(checkoutSessions.id, id));
    return { orderId: order.id, reviewToken: order.reviewToken };
  });
}
