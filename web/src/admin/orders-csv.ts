// CSV export of the merchant's orders (RFC 4180: quoted fields, CRLF), one row per order, with a
// guard against spreadsheet formula injection since emails and names come from shoppers.
import { DEFAULT_COUNTRY, formatUsdc, orderTaxIncluded, parseUsdc } from '@store/shared';
import type { MerchantOrder } from './types.ts';

const COLUMNS = [
  'Order ID',
  'Created At',
  'Store',
  'Customer',
  'Status',
  'Items',
  'Subtotal (USDC)',
  'Discount Code',
  'Discount (USDC)',
  'Shipping (USDC)',
  'Tax (USDC)',
  'Total (USDC)',
  'Tax Included',
  'Chain',
  'Transaction',
  'Merchant Net (USDC)',
  'Fee (USDC)',
  'Forwarding Transactions',
  'Carrier',
  'Tracking Number',
  'Tracking URL',
  'Ship To',
  'Phone',
  'Street',
  'City',
  'State/Region',
  'Postal Code',
  'Country',
] as const;

/**
 * The order's tax. Note: an order cached before the tax was stored has none; its total holds it
 * beyond the subtotal and shipping.
 */
export function orderTax(
  order: Pick<MerchantOrder, 'subtotalUsdc' | 'shippingUsdc' | 'totalUsdc'> & {
    taxUsdc?: string;
    discountUsdc?: string;
  },
): string {
  if (order.taxUsdc !== undefined) return order.taxUsdc;
  const rest =
    parseUsdc(order.totalUsdc) -
    parseUsdc(order.subtotalUsdc) +
    parseUsdc(order.discountUsdc ?? '0') -
    parseUsdc(order.shippingUsdc);
  return formatUsdc(rest > 0n ? rest : 0n);
}

function addressFields(order: MerchantOrder) {
  const address = order.shippingAddress;
  if (!address) return ['', '', '', '', '', '', ''];
  return [
    `${address.firstName} ${address.lastName}`.trim(),
    address.phone,
    address.street,
    address.city,
    address.state,
    address.zipCode,
    // Note: an address stored before addresses had countries is a US address.
    address.country ?? DEFAULT_COUNTRY,
  ];
}

/** One CSV field: quoted, quotes doubled, and a leading =, +, -, @ neutralised with a quote. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

function itemsText(order: MerchantOrder): string {
  return order.items.map((item) => `${item.quantity} x ${item.title}`).join('; ');
}

/**
 * The orders as CSV text; `storeName` names each order's store, `chainName` the chain they were
 * paid on (the deployment's, from the chain facts: "Base", or "Local chain 31337").
 */
export function ordersToCsv(
  orders: readonly MerchantOrder[],
  storeName: (storeId: string | null) => string,
  chainName: string,
): string {
  const rows = orders.map((order) => [
    order.id,
    order.createdAt,
    storeName(order.storeId),
    order.customerEmail,
    order.status,
    itemsText(order),
    order.subtotalUsdc,
    order.discountCode,
    order.discountUsdc ?? '0.00',
    order.shippingUsdc,
    orderTax(order),
    order.totalUsdc,
    // Note: yes when the prices held the tax (the total does not add it).
    orderTaxIncluded({ ...order, taxUsdc: orderTax(order) }) ? 'yes' : 'no',
    order.paymentChain ? chainName : '',
    order.paymentTxHash,
    // Note: what the forwarding legs paid out, to the base unit (an order not forwarded yet: empty).
    order.forwarded?.merchantUsdc,
    order.forwarded?.feeUsdc,
    order.forwarded?.txHashes.join(' '),
    order.shipment?.carrier,
    order.shipment?.trackingNumber,
    order.shipment?.trackingUrl,
    ...addressFields(order),
  ]);
  const lines = [COLUMNS, ...rows].map((row) => row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Starts a download of `text` as `fileName` (a CSV). */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  // Note: the link and its blob stay a minute, not a moment: Chromium starts the download after
  // the click returns, and removing the link or revoking the blob first cancels it silently.
  setTimeout(() => {
    link.remove();
    URL.revokeObjectURL(url);
  }, 60_000);
}
