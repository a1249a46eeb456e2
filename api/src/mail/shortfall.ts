// The mails of a shortfall, sent the moment part of an order's total arrives: the shopper's (what
// arrived, what is left, a link to pay the rest, in the store's name and colour) and the store
// owner's (the same figures and the order page, where they accept it as paid or refund it). Both
// are rendered from the payment as it is when sent: once the order is paid, accepted or refunded,
// or the payment left the chain, neither goes out.
import {
  escapeHtml as e,
  formatOrderNumber,
  formatUsdcFull,
  isHexColor,
  parseUsdc,
  paymentPagePath,
} from '@store/shared';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { orders, paymentWallets, refunds, stores } from '../db/schema.ts';
import { accountMailPage } from './account.ts';
import { mailBrandOf } from './brand.ts';
import { type RenderedEmail, storeNameOf } from './receipt.ts';
import type { MailTemplate } from './template.ts';

const DEFAULT_COLOR = '#6366f1';

/** What both shortfall mails tell: the order, what arrived and what is left to pay. */
export interface Shortfall {
  orderId: string;
  storeName: string;
  total: string;
  arrived: string;
  remaining: string;
}

/** The order's shortfall as it is now; undefined once there is none to tell. */
async function shortfallOf(db: Database, orderId: string) {
  const [row] = await db
    .select({ order: orders, wallet: paymentWallets })
    .from(orders)
    .innerJoin(paymentWallets, eq(paymentWallets.orderId, orders.id))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (row?.order.status !== 'pending' || row.wallet.exception !== 'underpaid') return;
  // Note: once its merchant refunded it, the order takes no more money.
  const [declined] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.walletId, row.wallet.id), eq(refunds.reason, 'underpaid')))
    .limit(1);
  if (declined) return;
  const expected = parseUsdc(row.wallet.expectedAmountUsdc);
  const arrived = parseUsdc(row.wallet.detectedAmountUsdc);
  if (arrived <= 0n || arrived >= expected) return;
  const figures = {
    orderId: row.order.id,
    total: row.wallet.expectedAmountUsdc,
    arrived: formatUsdcFull(arrived),
    remaining: formatUsdcFull(expected - arrived),
  };
  return { order: row.order, figures };
}

/** The shopper's mail: what arrived, what is left, and the payment page to send the rest. */
export function renderShopperShortfall(
  mail: Shortfall & { to: string; primaryColor: string | null; replyTo: string | null },
  payUrl: string | null,
): RenderedEmail {
  const number = formatOrderNumber(mail.orderId);
  const color =
    mail.primaryColor && isHexColor(mail.primaryColor) ? mail.primaryColor : DEFAULT_COLOR;
  const subject = `Your payment for order ${number} is ${mail.remaining} USDC short`;
  const lead = `${mail.arrived} USDC of the ${mail.total} USDC total of your order reached ${mail.storeName}. The order is paid once the remaining ${mail.remaining} USDC arrives at the same address.`;
  const contact = mail.replyTo
    ? `Would you rather have your money back? Reply to this email to reach ${mail.storeName}.`
    : `Would you rather have your money back? Contact ${mail.storeName}.`;
  const text = [
    lead,
    '',
    `Order ${number}`,
    `Arrived: ${mail.arrived} USDC`,
    `Left to pay: ${mail.remaining} USDC`,
    ...(payUrl ? ['', `Pay the rest: ${payUrl}`] : []),
    '',
    contact,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-top:6px solid ${color};padding:24px">
<h1 style="font-size:20px;margin:0 0 4px">${e(mail.storeName)}</h1>
<p style="margin:0 0 16px">${e(lead)}</p>
<p style="margin:0 0 8px;font-weight:700">Order ${e(number)}</p>
<p style="margin:0">Arrived: <strong>${e(mail.arrived)} USDC</strong></p>
<p style="margin:4px 0 0">Left to pay: <strong>${e(mail.remaining)} USDC</strong></p>${
    payUrl
      ? `<p style="margin:16px 0 0"><a href="${e(payUrl)}" style="display:inline-block;background:${color};color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Pay the rest</a></p>`
      : ''
  }
<p style="margin:24px 0 0;font-size:13px;color:#52525b">${e(contact)}</p>
</div></body></html>`;
  return { to: mail.to, replyTo: mail.replyTo ?? undefined, subject, text, html };
}

/** The store owner's mail: the same figures and the order page, where they decide. */
export function renderMerchantShortfall(
  mail: Shortfall & { to: string },
  orderUrl: string | null,
): RenderedEmail {
  const number = formatOrderNumber(mail.orderId);
  const subject = `Order ${number} at ${mail.storeName} is underpaid: ${mail.remaining} USDC short`;
  const advice =
    'The shopper was emailed a link to pay the rest. You can also decide now: accept the order as paid (what arrived is forwarded to you) or refund the payer in full, from the order page.';
  const text = [
    `Order ${number} at ${mail.storeName} received ${mail.arrived} of ${mail.total} USDC.`,
    `Left to pay: ${mail.remaining} USDC`,
    '',
    advice,
    ...(orderUrl ? ['', `Order page: ${orderUrl}`] : []),
  ].join('\n');
  const html = accountMailPage(
    `Order ${number} at ${mail.storeName} is underpaid`,
    `<p style="margin:0">Received <strong>${e(mail.arrived)} of ${e(mail.total)} USDC</strong>; left to pay: <strong>${e(mail.remaining)} USDC</strong>.</p>
<p style="margin:12px 0 0;font-size:14px">${e(advice)}</p>${
      orderUrl
        ? `<p style="margin:16px 0 0"><a href="${e(orderUrl)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Open the order</a></p>`
        : ''
    }`,
  );
  return { to: mail.to, replyTo: undefined, subject, text, html };
}

/** The outbox template of kind 'underpaid' (the shopper's). */
export const shopperShortfall: MailTemplate = async (db, message, _chainId, publicUrl) => {
  if (!message.orderId) return null;
  const found = await shortfallOf(db, message.orderId);
  if (!found) return null;
  const store = await mailBrandOf(db, found.order);
  return renderShopperShortfall(
    {
      ...found.figures,
      to: message.toAddress,
      storeName: storeNameOf(found.order, store?.name),
      primaryColor: store?.primaryColor ?? found.order.metadata?.colors?.primary ?? null,
      replyTo: store?.replyTo ?? null,
    },
    publicUrl ? `${publicUrl}${paymentPagePath(found.order)}` : null,
  );
};

/** The outbox template of kind 'merchant_underpaid' (the store owner's). */
export const merchantShortfall: MailTemplate = async (db, message, _chainId, publicUrl) => {
  if (!message.orderId) return null;
  const found = await shortfallOf(db, message.orderId);
  if (!found?.order.storeId) return null;
  const [store] = await db
    .select({ name: stores.name })
    .from(stores)
    .where(eq(stores.id, found.order.storeId))
    .limit(1);
  if (!store) return null;
  return renderMerchantShortfall(
    { ...found.figures, to: message.toAddress, storeName: store.name },
    publicUrl ? `${publicUrl}/admin/orders/${found.order.id}` : null,
  );
};
