// An order's invoice for the route: who may read it (the store's owner, or the shopper with the
// order's buyer token) and the PDF response.
import { invoiceFileName } from '@store/shared';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import { loadInvoice } from '../../mail/invoice.ts';
import type { InvoiceDocument } from '../../mail/invoice-pdf.ts';
import { type Caller, membershipOf, requirePermission } from '../team/access.ts';

/** Messages of the invoice route. */
export const INVOICE_MESSAGES = {
  notFound: 'Order not found',
  notIssued: 'This order has no invoice: invoices are issued once an order is paid',
  signIn: "Sign in as the store's owner, or open the invoice from the order's page",
} as const;

/**
 * Whether the caller may read order `orderId`'s invoice: the shopper with the order's buyer token,
 * or a member of the order's store's team. 404 for an unknown order or another merchant's, 401 for an
 * anonymous caller without the token.
 */
export async function checkInvoiceAccess(
  db: Database,
  orderId: string,
  caller: { buyerToken: string | undefined; user: Caller | undefined },
): Promise<void> {
  const [order] = isUuid(orderId)
    ? await db
        .select({ buyerToken: orders.reviewToken, storeId: orders.storeId })
        .from(orders)
        .leftJoin(stores, eq(stores.id, orders.storeId))
        .where(eq(orders.id, orderId))
        .limit(1)
    : [];
  if (order && isBuyerToken(order.buyerToken, caller.buyerToken)) return;
  if (caller.user === undefined) throw new AppError('unauthorized', INVOICE_MESSAGES.signIn);
  const member = order?.storeId ? await membershipOf(db, caller.user, order.storeId) : null;
  if (!member) throw new AppError('not_found', INVOICE_MESSAGES.notFound);
  requirePermission(member, 'read');
}

/** The invoice of an order the caller may read, as a PDF response. */
export async function invoicePdfResponse(
  db: Database,
  orderId: string,
  chainId: number,
  render: (invoice: InvoiceDocument) => Promise<Uint8Array>,
): Promise<Response> {
  const invoice = await loadInvoice(db, orderId, chainId);
  if (!invoice) throw new AppError('not_found', INVOICE_MESSAGES.notIssued);
  const bytes = await render(invoice.document);
  return new Response(bytes, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${invoiceFileName(invoice.number)}"`,
      'cache-control': 'private, no-store',
    },
  });
}
