// The templates of the email outbox, by kind: each renders one queued message from what is stored
// now (the order, the store, the row's payload), or null when what it is about no longer exists.

import { invoiceFileName } from '@store/shared';
import { eq } from 'drizzle-orm';
import { orders, stores } from '../db/schema.ts';
import { paidOrderDownloads } from '../keys/download-links.ts';
import { ACCOUNT_MAIL_KINDS } from './account.ts';
import { loadInvoice } from './invoice.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { NOTICE_MAIL_KINDS } from './notices.ts';
import { orderPageUrl } from './order-page.ts';
import {
  brandingStoreId,
  type ReceiptDownloads,
  receiptStoreExtras,
  renderReceipt,
  storeNameOf,
} from './receipt.ts';
import { refundClaim } from './refund.ts';
import { shipped } from './shipped.ts';
import { merchantShortfall, shopperShortfall } from './shortfall.ts';
import type { MailTemplate } from './template.ts';

/**
 * The download part of a receipt: links signed now (so their hour starts when the mail goes out)
 * and the order page with the buyer token; null without files, payment or a public origin.
 */
async function receiptDownloads(
  db: Parameters<MailTemplate>[0],
  order: { id: string; reviewToken: string },
  storeSlug: string | null,
  publicUrl: string | null | undefined,
): Promise<ReceiptDownloads | null> {
  if (!publicUrl) return null;
  const links = await paidOrderDownloads(db, order.id);
  const [first] = links;
  if (!first) return null;
  return {
    files: links.map((link) => ({
      title: link.title,
      fileName: link.fileName,
      url: `${publicUrl}${link.url}`,
    })),
    expiresAt: first.expiresAt,
    orderPageUrl: `${orderPageUrl(publicUrl, storeSlug, order.id)}#token=${encodeURIComponent(order.reviewToken)}`,
  };
}

/** The receipt of one order, rendered from the order and its store as they are now. */
const receipt: MailTemplate = async (db, message, chainId, publicUrl) => {
  if (!message.orderId) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, message.orderId)).limit(1);
  if (!order) return null;
  const storeId = brandingStoreId(order);
  const [store] = !storeId
    ? []
    : await db
        .select({
          name: stores.name,
          primaryColor: stores.primaryColor,
          replyTo: stores.replyToEmail,
          slug: stores.slug,
          attachInvoice: stores.attachInvoiceToReceipt,
          settings: {
            taxRateBps: stores.taxRateBps,
            shippingOptions: stores.shippingOptions,
            shippingZones: stores.shippingZones,
            shippingTime: stores.shippingTime,
            returnPolicyDays: stores.returnPolicyDays,
          },
        })
        .from(stores)
        .where(eq(stores.id, storeId))
        .limit(1);
  const rendered = renderReceipt(
    order,
    {
      name: storeNameOf(order, store?.name),
      primaryColor: store?.primaryColor ?? order.metadata?.colors?.primary ?? null,
      replyTo: store?.replyTo ?? null,
      ...receiptStoreExtras(store, order.shippingUsdc, publicUrl, order.shippingAddress?.country),
    },
    chainId,
    await receiptDownloads(db, order, store?.slug ?? null, publicUrl),
  );
  if (!store?.attachInvoice) return rendered;
  // Note: the invoice as it prints now (issued with the payment this receipt confirms).
  const invoice = await loadInvoice(db, order.id, chainId);
  if (!invoice) return rendered;
  const pdf = await renderInvoicePdf(invoice.document);
  return {
    ...rendered,
    attachments: [
      {
        filename: invoiceFileName(invoice.number),
        content: Buffer.from(pdf),
        contentType: 'application/pdf',
      },
    ],
  };
};

/** Every kind the dispatcher sends; a row of another kind is marked failed. */
export const MAIL_KINDS: Readonly<Record<string, MailTemplate>> = {
  receipt,
  shipped,
  verify_email: ACCOUNT_MAIL_KINDS.verify_email,
  reset_password: ACCOUNT_MAIL_KINDS.reset_password,
  merchant_paid: ACCOUNT_MAIL_KINDS.merchant_paid,
  team_invitation: ACCOUNT_MAIL_KINDS.team_invitation,
  refund_claim: refundClaim,
  underpaid: shopperShortfall,
  merchant_underpaid: merchantShortfall,
  ...NOTICE_MAIL_KINDS,
};
