// An order's invoice as it prints now: the InvoiceDocument of a paid store order from what is
// stored (the invoice row the payment issued, the order, its store's legal details, the payment).
// The invoice route serves it and the receipt mail attaches it (docs/rules.md#invoices).
import {
  addressTailLines,
  chainFacts,
  formatInvoiceNumber,
  formatOrderNumber,
  formatUsdc,
  multiplyUsdc,
  parseUsdc,
} from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { invoices, orders, paymentWallets, stores } from '../db/schema.ts';
import type { InvoiceDocument } from './invoice-pdf.ts';

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
      // Note: subtotal - discount + shipping + tax = total, or, when the prices include the tax,
      // subtotal - discount + shipping = total (orderTaxIncluded).
      discountUsdc: order.discountCode ? order.discountUsdc : null,
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
