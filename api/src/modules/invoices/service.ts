// An order's invoice: who may read it (the store's owner, or the shopper with the order's buyer
// token), and the InvoiceDocument of a paid store order from what is stored (the invoice row the
// payment issued, the order, its store's legal details, the payment).
import {
  addressTailLines,
  chainFacts,
  formatInvoiceNumber,
  formatOrderNumber,
  formatUsdc,
  invoiceFileName,
  multiplyUsdc,
  parseUsdc,
} from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { invoices, orders, paymentWallets, stores } from '../../db/schema.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import { isUuid } from '../stores/service.ts';
import type { InvoiceDocument } from './pdf.ts';

/** Messages of the invoice route. */
export const INVOICE_MESSAGES = {
  notFound: 'Order not found',
  notIssued: 'This order has no invoice: invoices are issued once an order is paid',
  signIn: "Sign in as the store's owner, or open the invoice from the order's page",
} as const;

/** An issued invoice: its number and the document. */
export interface IssuedInvoice {
  number: number;
  document: InvoiceDocument;
}

/**
 * The invoice of order `orderId` as it prints now; undefined when the order has none (not paid,
 * or a link's order with no store of ours).
 */
export async function loadInvoice(
  db: Executor,
  orderId: string,
  chainId: number,
): Promise<IssuedInvoice | undefined> {
  const [row] = await db
    .select({
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      order: orders,
      store: {
        name: stores.name,
        legalName: stores.legalName,
        legalAddress: stores.legalAddress,
        taxId: stores.taxId,
      },
      paidAt: sql<Date | null>`(select max(${paymentWallets.paymentReceivedAt}) from ${paymentWallets} where ${paymentWallets.orderId} = ${orders.id})`,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(stores, eq(stores.id, invoices.storeId))
    .where(eq(invoices.orderId, orderId))
    .limit(1);
  if (!row) return undefined;
  const { order, store } = row;
  const address = order.shippingAddress;
  const buyer =
    order.customerErasedAt !== null
      ? null
      : {
          name: address ? `${address.firstName} ${address.lastName}`.trim() : '',
          email: order.customerEmail,
          phone: address?.phone ?? '',
          addressLines: address
            ? [address.street, ...addressTailLines(address)].filter((l) => l.trim() !== '')
            : [],
        };
  return {
    number: row.number,
    document: {
      number: formatInvoiceNumber(row.number),
      issuedAt: row.issuedAt,
      orderNumber: formatOrderNumber(order.id),
      orderedAt: order.createdAt,
      seller: {
        name: store.legalName ?? store.name,
        storeName: store.name,
        addressLines: store.legalAddress ? store.legalAddress.split('\n') : [],
        taxId: store.taxId,
      },
      buyer,
      lines: order.items.map((item) => ({
        title: item.title,
        quantity: item.quantity,
        unitUsdc: formatUsdc(parseUsdc(item.priceUsdc)),
        totalUsdc: formatUsdc(multiplyUsdc(parseUsdc(item.priceUsdc), item.quantity)),
      })),
      subtotalUsdc: order.subtotalUsdc,
      // Note: orders carry no discount yet; once they do, its amount goes here (the totals
      // then read subtotal - discount + shipping + tax = total).
      discountUsdc: null,
      shippingUsdc: order.shippingUsdc,
      taxUsdc: order.taxUsdc,
      totalUsdc: order.totalUsdc,
      payment: {
        chain: chainFacts(chainId)?.name ?? `chain ${chainId}`,
        txHash: order.paymentTxHash,
        paidAt: row.paidAt ? new Date(row.paidAt) : null,
      },
    },
  };
}

/**
 * Whether the caller may read order `orderId`'s invoice: the shopper with the order's buyer token,
 * or the owner of the order's store. 404 for an unknown order or another merchant's, 401 for an
 * anonymous caller without the token.
 */
export async function checkInvoiceAccess(
  db: Database,
  orderId: string,
  caller: { buyerToken: string | undefined; userId: string | undefined },
): Promise<void> {
  const [order] = isUuid(orderId)
    ? await db
        .select({ buyerToken: orders.reviewToken, ownerId: stores.ownerId })
        .from(orders)
        .leftJoin(stores, eq(stores.id, orders.storeId))
        .where(eq(orders.id, orderId))
        .limit(1)
    : [];
  if (order && isBuyerToken(order.buyerToken, caller.buyerToken)) return;
  if (caller.userId === undefined) throw new AppError('unauthorized', INVOICE_MESSAGES.signIn);
  if (!order || order.ownerId !== caller.userId)
    throw new AppError('not_found', INVOICE_MESSAGES.notFound);
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
