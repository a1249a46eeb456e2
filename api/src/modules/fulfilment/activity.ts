// What happened to one order, for its page in the admin: its webhook deliveries (event, status,
// attempts, last answer) and a timeline of every step: placed, each payment state change, each
// forwarding leg, each webhook, each mail, shipped.
import {
  formatUsdcFull,
  isPaymentState,
  type OrderActivity,
  type OrderDeposit,
  type OrderWebhook,
  type PaymentPhase,
  parseUsdc,
  paymentPhase,
  type TimelineEntry,
} from '@store/shared';
import { asc, eq } from 'drizzle-orm';
import { transfersTo } from '../../chain/indexer.ts';
import type { Database } from '../../db/client.ts';
import {
  emailOutbox,
  forwardingTransfers,
  paymentEvents,
  paymentWallets,
  webhookDeliveries,
} from '../../db/schema.ts';
import { getOwnOrderOrThrow } from '../orders/service.ts';
import type { Caller } from '../team/access.ts';

const PAYMENT_TITLES: Record<PaymentPhase, string> = {
  waiting: 'Waiting for payment',
  detected: 'Payment detected',
  received: 'Payment confirmed',
  overpaid: 'Payment confirmed: overpaid',
  paid_late: 'Payment confirmed: paid late',
  underpaid: 'Underpaid',
  expired: 'Payment window closed',
  reversed: 'Payment reversed by a chain reorganisation',
};

const MAIL_TITLES: Record<string, string> = {
  receipt: 'Receipt',
  shipped: 'Shipping email',
  merchant_paid: 'Paid-order notice',
};

const LEG_TITLES: Record<string, string> = {
  merchant: 'Forwarded to the merchant',
  fee: 'Platform fee forwarded',
  gas: 'Gas sent to the deposit address',
};

/** USDC base units (a leg's value) as exact USDC text. */
const usdcOfUnits = (units: string) =>
  /^\d+$/.test(units) ? formatUsdcFull(BigInt(units)) : units;

/**
 * The USDC transfers the indexer saw arrive at the order's deposit address, in chain order. Note:
 * none when the indexer's tables cannot be read (an API without an indexer): the page says so.
 */
async function depositsOf(db: Database, orderId: string): Promise<OrderDeposit[]> {
  const [wallet] = await db
    .select({ address: paymentWallets.walletAddress })
    .from(paymentWallets)
    .where(eq(paymentWallets.orderId, orderId))
    .limit(1);
  if (!wallet) return [];
  try {
    const transfers = await transfersTo(db, wallet.address, 100);
    return transfers.map((transfer) => ({
      txHash: transfer.txHash,
      amount: formatUsdcFull(transfer.value),
      blockNumber: transfer.blockNumber.toString(),
      at: new Date(Number(transfer.blockTimestamp) * 1000).toISOString(),
    }));
  } catch {
    return [];
  }
}

/**
 * What a payment event says arrived: the amount received at the confirmation depth, and what was
 * seen beyond it (a payment is detected, or found short, as soon as it is in a block).
 */
export function arrivedText(
  event: { toStatus: string; receivedAmountUsdc: string },
  details: Record<string, unknown>,
): string {
  const seen = typeof details.detectedAmountUsdc === 'string' ? details.detectedAmountUsdc : null;
  const received = event.receivedAmountUsdc;
  if (!seen || parseUsdc(seen) <= parseUsdc(received)) return `${received} USDC received`;
  if (parseUsdc(received) === 0n) return `${seen} USDC seen, waiting for confirmations`;
  return `${seen} USDC seen, ${received} USDC of it confirmed`;
}

const entry = (
  at: Date,
  kind: TimelineEntry['kind'],
  title: string,
  detail: string | null = null,
  txHash: string | null = null,
): TimelineEntry => ({ at: at.toISOString(), kind, title, detail, txHash });

/** GET /api/orders/{id}/activity: the merchant's order's webhooks and timeline (404 otherwise). */
export async function getOrderActivity(
  db: Database,
  caller: Caller,
  orderId: string,
): Promise<OrderActivity> {
  const order = await getOwnOrderOrThrow(db, caller, orderId, 'read');
  const [deposits, events, legs, deliveries, mails] = await Promise.all([
    depositsOf(db, order.id),
    db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.orderId, order.id))
      .orderBy(asc(paymentEvents.createdAt)),
    db
      .select({ leg: forwardingTransfers })
      .from(forwardingTransfers)
      .innerJoin(paymentWallets, eq(paymentWallets.id, forwardingTransfers.walletId))
      .where(eq(paymentWallets.orderId, order.id))
      .orderBy(asc(forwardingTransfers.round), asc(forwardingTransfers.createdAt)),
    db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.orderId, order.id))
      .orderBy(asc(webhookDeliveries.createdAt)),
    db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, order.id))
      .orderBy(asc(emailOutbox.createdAt)),
  ]);
  const webhooks: OrderWebhook[] = deliveries.map((d) => ({
    id: d.id,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attemptCount,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  }));
  const timeline: TimelineEntry[] = [
    entry(order.createdAt, 'created', 'Order placed', `${order.totalUsdc} USDC`),
  ];
  for (const event of events) {
    const details = (event.details ?? {}) as Record<string, unknown>;
    if (details.forwardingReopened) {
      timeline.push(
        entry(event.createdAt, 'forwarded', 'A forwarding leg left the chain; sent again'),
      );
      continue;
    }
    const legTx = typeof details.txHash === 'string' ? details.txHash : null;
    if (details.legReverted) {
      const title = 'A forwarding transaction reverted (the deposit address did not hold it)';
      timeline.push(entry(event.createdAt, 'forwarded', title, `Leg ${details.leg}`, legTx));
      continue;
    }
    if (details.legCanceled) {
      const cancelTx = typeof details.cancelTxHash === 'string' ? details.cancelTxHash : null;
      const title = 'A forwarding leg was cancelled: its payment left the chain';
      timeline.push(entry(event.createdAt, 'forwarded', title, `Leg ${details.leg}`, cancelTx));
      continue;
    }
    const tx = typeof details.paymentTxHash === 'string' ? details.paymentTxHash : null;
    if (details.acceptedUnderpaid) {
      const short =
        typeof details.shortfall === 'string' ? `, ${details.shortfall} USDC short` : '';
      const detail = `${event.receivedAmountUsdc} USDC received${short}`;
      timeline.push(entry(event.createdAt, 'payment', 'Accepted as paid by the merchant', detail));
      continue;
    }
    const title = isPaymentState(event.toStatus)
      ? PAYMENT_TITLES[paymentPhase(event.toStatus, event.exception)]
      : `Payment ${event.toStatus}`;
    timeline.push(entry(event.createdAt, 'payment', title, arrivedText(event, details), tx));
  }
  for (const { leg } of legs) {
    const amount = leg.leg === 'gas' ? `${leg.value} wei` : `${usdcOfUnits(leg.value)} USDC`;
    const title = LEG_TITLES[leg.leg] ?? `Forwarding leg ${leg.leg}`;
    timeline.push(
      entry(
        leg.confirmedAt ?? leg.createdAt,
        'forwarded',
        leg.status === 'confirmed' ? title : `${title} (${leg.status})`,
        `Round ${leg.round}: ${amount} to ${leg.toAddress}`,
        leg.txHash,
      ),
    );
  }
  for (const d of webhooks) {
    const answer = d.lastStatusCode === null ? '' : ` (HTTP ${d.lastStatusCode})`;
    timeline.push(
      entry(
        new Date(d.deliveredAt ?? d.createdAt),
        'webhook',
        `Webhook ${d.eventType} ${d.status}${answer}`,
        d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`,
      ),
    );
  }
  for (const mail of mails) {
    const what = MAIL_TITLES[mail.kind] ?? `Email (${mail.kind})`;
    timeline.push(
      mail.sentAt
        ? entry(mail.sentAt, 'mail', `${what} sent`, recipientOf(mail.toAddress))
        : entry(
            mail.createdAt,
            'mail',
            `${what} ${mail.status === 'failed' ? 'not sent' : 'queued'}`,
            recipientOf(mail.toAddress),
          ),
    );
  }
  if (order.shipment) {
    const { carrier, trackingNumber } = order.shipment;
    timeline.push(
      entry(
        new Date(order.shipment.shippedAt),
        'shipped',
        'Shipped',
        `${carrier} ${trackingNumber}`,
      ),
    );
  }
  for (const deposit of deposits)
    timeline.push(
      entry(
        new Date(deposit.at),
        'payment',
        `Transfer of ${deposit.amount} USDC arrived`,
        `Block ${deposit.blockNumber}`,
        deposit.txHash,
      ),
    );
  timeline.sort((a, b) => a.at.localeCompare(b.at));
  return { deposits, webhooks, timeline };
}

/** Whom an order's mail went to: its address, or a note once the customer's data was erased. */
function recipientOf(address: string): string {
  return address ? `to ${address}` : 'to the customer (their data was erased)';
}
