// The shopper's "your order has shipped" mail: carrier, tracking number and link, the lines and
// where it goes, in the store's name and colour; rendered from the order as it is when sent, so a
// corrected tracking number queued before sending goes out corrected.
import { escapeHtml, formatOrderNumber, isHexColor, trackingLinkOf } from '@store/shared';
import { eq } from 'drizzle-orm';
import { orders } from '../db/schema.ts';
import { mailBrandOf } from './brand.ts';
import { type RenderedEmail, storeNameOf } from './receipt.ts';
import type { MailTemplate } from './template.ts';

const DEFAULT_COLOR = '#6366f1';

/** What the shipped mail is made of. */
export interface ShippedMail {
  orderId: string;
  customerEmail: string;
  storeName: string;
  primaryColor: string | null;
  replyTo: string | null;
  items: { title: string; quantity: number }[];
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
  /** The shopper's order page. */
  orderPageUrl: string | null;
  /** True when this mail corrects the tracking of one sent before. */
  updated: boolean;
}

/** Renders the shipped mail (plain text and HTML, every value escaped). */
export function renderShipped(mail: ShippedMail): RenderedEmail {
  const number = formatOrderNumber(mail.orderId);
  const color =
    mail.primaryColor && isHexColor(mail.primaryColor) ? mail.primaryColor : DEFAULT_COLOR;
  const link = trackingLinkOf(mail);
  const subject = mail.updated
    ? `New tracking for your order ${number} from ${mail.storeName}`
    : `Your order ${number} from ${mail.storeName} has shipped`;
  const lead = mail.updated
    ? 'The tracking of your order has changed.'
    : 'Good news: your order is on its way.';
  const text = [
    lead,
    '',
    `Order ${number}`,
    ...mail.items.map((item) => `${item.title} × ${item.quantity}`),
    '',
    `Carrier: ${mail.carrier}`,
    `Tracking number: ${mail.trackingNumber}`,
    ...(link ? [`Track your parcel: ${link}`] : []),
    ...(mail.orderPageUrl ? ['', `Your order: ${mail.orderPageUrl}`] : []),
    '',
    mail.replyTo
      ? `Questions? Reply to this email to reach ${mail.storeName}.`
      : `Questions? Contact ${mail.storeName}.`,
  ].join('\n');
  const e = escapeHtml;
  const items = mail.items.map((item) => `<li>${e(item.title)} × ${item.quantity}</li>`).join('');
  const html = `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-top:6px solid ${color};padding:24px">
<h1 style="font-size:20px;margin:0 0 4px">${e(mail.storeName)}</h1>
<p style="margin:0 0 16px">${e(lead)}</p>
<p style="margin:0 0 8px;font-weight:700">Order ${e(number)}</p>
<ul style="margin:0 0 16px;padding-left:20px;font-size:14px">${items}</ul>
<p style="margin:0">Carrier: <strong>${e(mail.carrier)}</strong></p>
<p style="margin:4px 0 0;word-break:break-all">Tracking number: <strong>${e(mail.trackingNumber)}</strong></p>${
    link
      ? `<p style="margin:16px 0 0"><a href="${e(link)}" style="display:inline-block;background:${color};color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Track your parcel</a></p>`
      : ''
  }${mail.orderPageUrl ? `<p style="margin:16px 0 0;font-size:13px"><a href="${e(mail.orderPageUrl)}">View your order</a></p>` : ''}
<p style="margin:24px 0 0;font-size:13px;color:#52525b">${
    mail.replyTo
      ? `Questions? Reply to this email to reach ${e(mail.storeName)}.`
      : `Questions? Contact ${e(mail.storeName)}.`
  }</p>
</div></body></html>`;
  return { to: mail.customerEmail, replyTo: mail.replyTo ?? undefined, subject, text, html };
}

/** The outbox template of kind 'shipped': null once the order or its shipment is gone. */
export const shipped: MailTemplate = async (db, message) => {
  if (!message.orderId) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, message.orderId)).limit(1);
  if (!order?.shippedAt || !order.shippingCarrier || !order.trackingNumber) return null;
  const store = await mailBrandOf(db, order);
  const payload = message.payload ?? {};
  return renderShipped({
    orderId: order.id,
    customerEmail: message.toAddress,
    storeName: storeNameOf(order, store?.name),
    primaryColor: store?.primaryColor ?? order.metadata?.colors?.primary ?? null,
    replyTo: store?.replyTo ?? null,
    items: order.items.map((item) => ({ title: item.title, quantity: item.quantity })),
    carrier: order.shippingCarrier,
    trackingNumber: order.trackingNumber,
    trackingUrl: order.trackingUrl,
    orderPageUrl: typeof payload.orderPageUrl === 'string' ? payload.orderPageUrl : null,
    updated: payload.updated === true,
  });
};
