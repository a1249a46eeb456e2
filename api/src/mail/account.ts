// The mails of a merchant's account: the email verification link, the password reset link, and the
// notice of each paid order of their stores. Each renders from the row's payload and what is stored
// now; plain text and HTML, every value escaped.
import { escapeHtml, formatOrderNumber, formatUsdc, multiplyUsdc, parseUsdc } from '@store/shared';
import { eq } from 'drizzle-orm';
import { orders, stores } from '../db/schema.ts';
import type { RenderedEmail } from './receipt.ts';
import type { MailTemplate } from './template.ts';

const e = escapeHtml;

/** The page around an account mail's content. */
export function accountMailPage(title: string, body: string): string {
  return `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-top:6px solid #6366f1;padding:24px">
<h1 style="font-size:20px;margin:0 0 12px">${e(title)}</h1>${body}</div></body></html>`;
}

const button = (url: string, label: string) =>
  `<p style="margin:20px 0"><a href="${e(url)}" style="display:inline-block;background:#6366f1;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${e(label)}</a></p>
<p style="margin:0;font-size:13px;color:#52525b;word-break:break-all">Or open this link: ${e(url)}</p>`;

/** The link a mail carries, or undefined when its payload has none (already sent: cleared). */
const urlOf = (payload: Record<string, unknown> | null) =>
  typeof payload?.url === 'string' ? payload.url : undefined;

/** Renders the verification mail of `to` with its link. */
export function renderVerifyEmail(to: string, url: string): RenderedEmail {
  const subject = 'Verify your email address';
  const text = [
    'Confirm that this is the email address of your Storefront merchant account:',
    '',
    url,
    '',
    'The link works for 24 hours, once. We use this address to send password reset links and paid-order notices.',
    'If you did not add this address to an account, ignore this email: nothing changes.',
  ].join('\n');
  const html = accountMailPage(
    subject,
    `<p style="margin:0">Confirm that this is the email address of your Storefront merchant account.</p>${button(url, 'Verify email address')}
<p style="margin:16px 0 0;font-size:13px">The link works for 24 hours, once. We use this address to send password reset links and paid-order notices.</p>
<p style="margin:8px 0 0;font-size:13px;color:#52525b">If you did not add this address to an account, ignore this email: nothing changes.</p>`,
  );
  return { to, replyTo: undefined, subject, text, html };
}

/** Renders the password reset mail of `to` with its link. */
export function renderResetPassword(to: string, url: string): RenderedEmail {
  const subject = 'Reset your password';
  const text = [
    'Someone asked to reset the password of the Storefront merchant account with this email address.',
    'Choose a new password here:',
    '',
    url,
    '',
    'The link works for 1 hour, once. Resetting the password signs the account out everywhere.',
    'If you did not ask, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = accountMailPage(
    subject,
    `<p style="margin:0">Someone asked to reset the password of the Storefront merchant account with this email address.</p>${button(url, 'Choose a new password')}
<p style="margin:16px 0 0;font-size:13px">The link works for 1 hour, once. Resetting the password signs the account out everywhere.</p>
<p style="margin:8px 0 0;font-size:13px;color:#52525b">If you did not ask, ignore this email: your password stays as it is.</p>`,
  );
  return { to, replyTo: undefined, subject, text, html };
}

const verifyEmail: MailTemplate = async (_db, message) => {
  const url = urlOf(message.payload);
  return url ? renderVerifyEmail(message.toAddress, url) : null;
};

const resetPassword: MailTemplate = async (_db, message) => {
  const url = urlOf(message.payload);
  return url ? renderResetPassword(message.toAddress, url) : null;
};

/** The merchant's notice of a paid order: what sold, the total, who to ship to. */
const merchantPaid: MailTemplate = async (db, message) => {
  if (!message.orderId) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, message.orderId)).limit(1);
  if (!order) return null;
  if (!order.storeId) return null;
  const [store] = await db
    .select({ name: stores.name })
    .from(stores)
    .where(eq(stores.id, order.storeId))
    .limit(1);
  if (!store) return null;
  const number = formatOrderNumber(order.id);
  const subject = `New paid order ${number} at ${store.name}: ${order.totalUsdc} USDC`;
  const lines = order.items.map(
    (item) =>
      `${item.title} × ${item.quantity}: ${formatUsdc(multiplyUsdc(parseUsdc(item.priceUsdc), item.quantity))} USDC`,
  );
  const address = order.shippingAddress;
  const shipTo = address
    ? [`${address.firstName} ${address.lastName}`, address.street, address.city].filter(Boolean)
    : [];
  const text = [
    `${store.name} has a new paid order.`,
    '',
    `Order ${number}`,
    ...lines,
    `Total paid: ${order.totalUsdc} USDC`,
    `Customer: ${order.customerEmail}`,
    ...(shipTo.length > 0 ? [`Ship to: ${shipTo.join(', ')}`] : []),
    '',
    'The payment is confirmed; your 98% is forwarded to the store’s payout address. Open Orders in your admin to see it.',
    'You can turn these emails off for this store on your account page.',
  ].join('\n');
  const html = accountMailPage(
    `New paid order at ${store.name}`,
    `<p style="margin:0 0 8px;font-weight:700">Order ${e(number)}</p>
<ul style="margin:0;padding-left:18px;font-size:14px">${lines.map((line) => `<li>${e(line)}</li>`).join('')}</ul>
<p style="margin:12px 0 0;font-weight:700">Total paid: ${e(order.totalUsdc)} USDC</p>
<p style="margin:8px 0 0;font-size:14px">Customer: ${e(order.customerEmail)}</p>${
      shipTo.length > 0
        ? `<p style="margin:4px 0 0;font-size:14px">Ship to: ${e(shipTo.join(', '))}</p>`
        : ''
    }
<p style="margin:16px 0 0;font-size:13px">The payment is confirmed; your 98% is forwarded to the store’s payout address. Open Orders in your admin to see it.</p>
<p style="margin:8px 0 0;font-size:13px;color:#52525b">You can turn these emails off for this store on your account page.</p>`,
  );
  return { to: message.toAddress, replyTo: undefined, subject, text, html };
};

/** Renders the invitation to a store's team: who invites, to which store, with which role. */
export function renderTeamInvitation(
  to: string,
  invite: { url: string; storeName: string; role: string; invitedBy: string },
): RenderedEmail {
  const subject = `Join ${invite.storeName} on Storefront`;
  const text = [
    `${invite.invitedBy} invites you to the team of the store ${invite.storeName} as ${invite.role}.`,
    'Accept with your Storefront account of this email address (or sign up with it):',
    '',
    invite.url,
    '',
    'The link works for 7 days, once.',
    'If you did not expect this, ignore this email: nothing changes.',
  ].join('\n');
  const html = accountMailPage(
    subject,
    `<p style="margin:0">${e(invite.invitedBy)} invites you to the team of the store <strong>${e(invite.storeName)}</strong> as ${e(invite.role)}.</p>${button(invite.url, 'Accept the invitation')}
<p style="margin:16px 0 0;font-size:13px">Accept with your Storefront account of this email address (or sign up with it). The link works for 7 days, once.</p>
<p style="margin:8px 0 0;font-size:13px;color:#52525b">If you did not expect this, ignore this email: nothing changes.</p>`,
  );
  return { to, replyTo: undefined, subject, text, html };
}

const teamInvitation: MailTemplate = async (_db, message) => {
  const url = urlOf(message.payload);
  const payload = message.payload ?? {};
  const text = (key: string) => (typeof payload[key] === 'string' ? (payload[key] as string) : '');
  return url
    ? renderTeamInvitation(message.toAddress, {
        url,
        storeName: text('storeName'),
        role: text('role'),
        invitedBy: text('invitedBy'),
      })
    : null;
};

/** The account mails' templates, by kind (registered in kinds.ts). */
export const ACCOUNT_MAIL_KINDS = {
  verify_email: verifyEmail,
  reset_password: resetPassword,
  merchant_paid: merchantPaid,
  team_invitation: teamInvitation,
} as const satisfies Record<string, MailTemplate>;
