// The email outbox: a receipt row is written in the transaction that marks its order paid (so it
// exists if and only if the payment was recorded); the mail dispatcher sends it later, retrying.
import { ORDER_SOURCES, receiptIsEmailed } from '@store/shared';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { emailOutbox, orders, stores, users } from '../db/schema.ts';

/**
 * The conflict target of an order's mail of which there is one per order (every kind but the
 * refund claim mail: the outbox's partial unique index on (order, kind)).
 */
export const ONE_PER_ORDER = {
  target: [emailOutbox.orderId, emailOutbox.kind],
  where: sql`${emailOutbox.kind} <> 'refund_claim'`,
};

/** Why a mail to a customer whose data was erased is not sent. */
export const ERASED_MAIL_ERROR = "not sent: the customer's data was erased";

/** How long a receipt is retried before it is given up (a mail server down for days). */
export const EMAIL_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** The kinds of mail about a merchant's account. */
export type AccountMailKind = 'verify_email' | 'reset_password';

/**
 * Queues a mail about an account (a verification or reset link, in `payload.url`): sent by the
 * dispatcher like receipts, and its payload cleared once it is out.
 */
export async function enqueueAccountMail(
  tx: Executor,
  mail: { userId: string; kind: AccountMailKind; to: string; url: string },
  at: Date = new Date(),
): Promise<void> {
  await tx.insert(emailOutbox).values({
    userId: mail.userId,
    kind: mail.kind,
    toAddress: mail.to,
    payload: { url: mail.url },
    nextAttemptAt: at,
    // Note: a link that has expired is worth nothing: retried only while it works (1 h / 24 h).
    retryUntil: new Date(at.getTime() + (mail.kind === 'reset_password' ? 60 : 24 * 60) * 60_000),
    createdAt: at,
  });
}

/**
 * Queues the mails of a newly paid order, in one statement: the shopper's receipt, and the store
 * owner's paid-order notice; calling it again for the same order adds nothing (one of each per
 * order). Note: no receipt for an unsigned universal link (`receiptIsEmailed`): anyone can make
 * one with any store name, text and email address, so the platform would be mailing a stranger's
 * words to anyone for a cent. The owner's notice goes to a verified address only, and not when the
 * store turned order notices off.
 */
export async function enqueuePaidMails(tx: Executor, orderId: string, at: Date): Promise<void> {
  const emailed = ORDER_SOURCES.filter(receiptIsEmailed);
  const now = at.toISOString();
  const retryUntil = new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS).toISOString();
  await tx.execute(sql`
    with receipt as (
      insert into email_outbox (order_id, kind, to_address, next_attempt_at, retry_until, created_at)
      select o.id, 'receipt', o.customer_email, ${now}::timestamptz, ${retryUntil}::timestamptz,
        ${now}::timestamptz
      from orders o where o.id = ${orderId} and o.source in ${emailed}
      on conflict (order_id, kind) where kind <> 'refund_claim' do nothing)
    insert into email_outbox (order_id, user_id, kind, to_address, next_attempt_at, retry_until,
      created_at)
    select o.id, u.id, 'merchant_paid', u.email, ${now}::timestamptz, ${retryUntil}::timestamptz,
      ${now}::timestamptz
    from orders o
      join stores s on s.id = o.store_id
      join users u on u.id::text = s.owner_id
    where o.id = ${orderId} and s.notify_paid_orders and u.email is not null
      and u.email_verified_at is not null
    limit 1
    on conflict (order_id, kind) where kind <> 'refund_claim' do nothing`);
}

/**
 * Queues the mails of an order's shortfall, in the transaction that records it: the shopper's
 * (unless the order's receipt is not emailed: an unsigned link's) and the store owner's (to a
 * verified address, unless the store turned order notices off). One of each per order; neither
 * is sent if the order is paid, accepted or refunded by then (see shortfall.ts).
 */
export async function enqueueShortfall(tx: Executor, orderId: string, at: Date): Promise<void> {
  const [order] = await tx
    .select({ email: orders.customerEmail, source: orders.source })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  const retryUntil = new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS);
  if (order?.email && receiptIsEmailed(order.source))
    await tx
      .insert(emailOutbox)
      .values({
        orderId,
        kind: 'underpaid',
        toAddress: order.email,
        nextAttemptAt: at,
        retryUntil,
        createdAt: at,
      })
      .onConflictDoNothing(ONE_PER_ORDER);
  const [owner] = await tx
    .select({ userId: users.id, email: users.email })
    .from(orders)
    .innerJoin(stores, eq(stores.id, orders.storeId))
    .innerJoin(users, sql`${users.id}::text = ${stores.ownerId}`)
    .where(
      and(
        eq(orders.id, orderId),
        eq(stores.notifyPaidOrders, true),
        isNotNull(users.email),
        isNotNull(users.emailVerifiedAt),
      ),
    )
    .limit(1);
  if (owner?.email)
    await tx
      .insert(emailOutbox)
      .values({
        orderId,
        userId: owner.userId,
        kind: 'merchant_underpaid',
        toAddress: owner.email,
        nextAttemptAt: at,
        retryUntil,
        createdAt: at,
      })
      .onConflictDoNothing(ONE_PER_ORDER);
}

/**
 * Queues the payer's claim mail of a refund (kind 'refund_claim'): one for every refund opened
 * for them, each with its own token.
 */
export async function enqueueRefundClaimMail(
  tx: Executor,
  mail: { orderId: string; refundId: string; to: string; token: string },
  at: Date,
): Promise<void> {
  // Note: none for an unsigned universal link, like receipts (anyone could make one that mails a
  // stranger): its payer claims from the order's payment page.
  const [order] = await tx
    .select({ source: orders.source })
    .from(orders)
    .where(eq(orders.id, mail.orderId))
    .limit(1);
  if (!order || !receiptIsEmailed(order.source)) return;
  await tx.insert(emailOutbox).values({
    orderId: mail.orderId,
    kind: 'refund_claim',
    toAddress: mail.to,
    // Note: the token is in the payload until the mail is out (the dispatcher clears it).
    payload: { refundId: mail.refundId, token: mail.token },
    nextAttemptAt: at,
    retryUntil: new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS),
    createdAt: at,
  });
}

/**
 * Queues the invitation to a store's team to `to` (its single-use link in `payload.url`), sent as
 * account mails are and retried while the link works.
 */
export async function enqueueTeamInvitation(
  tx: Executor,
  mail: {
    invitedBy: { id: string; username: string };
    to: string;
    url: string;
    storeName: string;
    role: string;
    expiresAt: Date;
  },
  at: Date = new Date(),
): Promise<void> {
  await tx.insert(emailOutbox).values({
    userId: mail.invitedBy.id,
    kind: 'team_invitation',
    toAddress: mail.to,
    payload: {
      url: mail.url,
      storeName: mail.storeName,
      role: mail.role,
      invitedBy: mail.invitedBy.username,
    },
    nextAttemptAt: at,
    retryUntil: mail.expiresAt,
    createdAt: at,
  });
}
