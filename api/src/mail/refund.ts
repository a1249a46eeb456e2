// The payer's refund claim mail: the amount coming back, why, and the link of the claim page where
// they confirm (or enter) the address it goes to; rendered from the refund as it is when sent, and
// given up once the refund no longer awaits an address (claimed or canceled meanwhile).
import { escapeHtml, formatOrderNumber, formatUsdc, isHexColor } from '@store/shared';
import { eq } from 'drizzle-orm';
import { orders, refunds } from '../db/schema.ts';
import { claimPathOf } from '../keys/claim-tokens.ts';
import { mailBrandOf } from './brand.ts';
import { type RenderedEmail, storeNameOf } from './receipt.ts';
import type { MailTemplate } from './template.ts';

const DEFAULT_COLOR = '#6366f1';

/** Why money comes back, in the payer's words. */
const REASONS: Record<string, string> = {
  excess: 'You sent more than the order total; the difference is yours.',
  underpaid: 'The payment did not reach the order total and the store is refunding what arrived.',
  expired: 'The payment arrived after the order could be completed and is being returned.',
  oversold: 'The store could not supply your order and is refunding your payment.',
  merchant: 'The store is refunding your order.',
};

/** What the refund claim mail is made of. */
export interface RefundClaimMail {
  orderId: string;
  to: string;
  storeName: string;
  primaryColor: string | null;
  replyTo: string | null;
  /** USDC, base units. */
  amount: bigint;
  reason: string;
  claimUrl: string;
}

/** Renders the claim mail (plain text and HTML, every value escaped). */
export function renderRefundClaim(mail: RefundClaimMail): RenderedEmail {
  const number = formatOrderNumber(mail.orderId);
  const amount = `${formatUsdc(mail.amount)} USDC`;
  const color =
    mail.primaryColor && isHexColor(mail.primaryColor) ? mail.primaryColor : DEFAULT_COLOR;
  const why = REASONS[mail.reason] ?? REASONS.merchant;
  const subject = `${amount} to refund for your order ${number} from ${mail.storeName}`;
  const text = [
    `${amount} of your order ${number} is coming back to you.`,
    why ?? '',
    '',
    `Confirm where to send it: ${mail.claimUrl}`,
    '',
    'The address you paid from is filled in. If you paid from an exchange, enter an address of your own wallet: an exchange deposit address may not credit a refund.',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-top:6px solid ${color};padding:24px">
<h1 style="font-size:20px;margin:0 0 4px">${e(mail.storeName)}</h1>
<p style="margin:0 0 16px"><strong>${e(amount)}</strong> of your order ${e(number)} is coming back to you.</p>
<p style="margin:0 0 16px">${e(why ?? '')}</p>
<p style="margin:0 0 16px"><a href="${e(mail.claimUrl)}" style="display:inline-block;background:${color};color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Confirm the refund address</a></p>
<p style="margin:0;font-size:13px;color:#52525b">The address you paid from is filled in. If you paid from an exchange, enter an address of your own wallet: an exchange deposit address may not credit a refund.</p>
</div></body></html>`;
  return { to: mail.to, replyTo: mail.replyTo ?? undefined, subject, text, html };
}

/** The outbox template of kind 'refund_claim': null once the refund no longer awaits an address. */
export const refundClaim: MailTemplate = async (db, message, _chainId, publicUrl) => {
  const refundId = message.payload?.refundId;
  const token = message.payload?.token;
  if (!message.orderId || typeof refundId !== 'string' || !publicUrl) return null;
  const [refund] = await db.select().from(refunds).where(eq(refunds.id, refundId)).limit(1);
  if (refund?.status !== 'awaiting_address' || refund.orderId !== message.orderId) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, refund.orderId)).limit(1);
  if (!order) return null;
  const store = await mailBrandOf(db, order);
  return renderRefundClaim({
    orderId: order.id,
    to: message.toAddress,
    storeName: storeNameOf(order, store?.name),
    primaryColor: store?.primaryColor ?? order.metadata?.colors?.primary ?? null,
    replyTo: store?.replyTo ?? null,
    amount: BigInt(refund.amount),
    reason: refund.reason,
    // Note: the emailed token lets the payer choose any address; a mail queued before tokens were
    // random carries none and links the order pages' claim (the address that paid).
    claimUrl: `${publicUrl.replace(/\/$/, '')}${
      typeof token === 'string' ? `/refund/${token}` : claimPathOf(order.reviewToken, refund.id)
    }`,
  });
};
