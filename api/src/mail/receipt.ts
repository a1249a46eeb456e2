// The shopper's receipt of a paid order: its lines, totals, payment transaction and shipping
// address, in the store's name and colour, as plain text and as HTML (every value escaped); for a
// store order, a link to review each product (the order id in the link proves the purchase); for a
// paid order of file products, their download links (an hour long) and the order page for fresh ones.
import {
  addressTailLines,
  chainFacts,
  deliveryEstimateOf,
  escapeHtml,
  formatOrderNumber,
  formatUsdc,
  isHexColor,
  isLinkOrder,
  multiplyUsdc,
  type OrderItem,
  type OrderMetadata,
  type OrderSource,
  orderTaxLabel,
  parseUsdc,
  resolveStoreSettings,
  reviewFormPath,
  type ShippingAddress,
  type StoredStoreSettings,
  settingsForCountry,
} from '@store/shared';

/** What a receipt is made of: the order as stored and the store that sold it. */
export interface ReceiptOrder {
  id: string;
  customerEmail: string;
  shippingAddress: ShippingAddress | null;
  items: OrderItem[];
  subtotalUsdc: string;
  /** The discount code applied at checkout and what it took off (none: null / 0.00). */
  discountCode?: string | null;
  discountUsdc?: string;
  shippingUsdc: string;
  /** The tax the checkout computed (added to the total, or inside the prices: orderTaxIncluded). */
  taxUsdc?: string;
  totalUsdc: string;
  paymentTxHash: string | null;
  metadata: OrderMetadata | null;
  /** Where the order came from (a link's receipt carries the link's name and colour). */
  source: OrderSource;
  /** The buyer's proof of purchase for reviews (only the shopper and this receipt carry it). */
  reviewToken?: string;
}

/**
 * The files of a paid order as its receipt delivers them: signed links (absolute) that expire, and
 * the order page (with the buyer token) that gives fresh ones once they have.
 */
export interface ReceiptDownloads {
  files: { title: string; fileName: string; url: string }[];
  /** When the links stop working (ISO 8601): an hour after the mail was rendered. */
  expiresAt: string;
  /** The shopper's order page, which signs fresh links each time it opens. */
  orderPageUrl: string;
}

/** The store's part of a receipt (universal orders: the name and colour their link carried). */
export interface ReceiptStore {
  name: string;
  primaryColor: string | null;
  replyTo: string | null;
  /**
   * Where the store's review form lives (the web app's public origin and the store's slug); none
   * for universal orders, whose items are not our products.
   */
  reviews?: { origin: string; slug: string } | null;
  /** The store's delivery estimate of this order (5-7 business days when not given). */
  deliveryEstimate?: string;
}

/** A rendered message. */
export interface RenderedEmail {
  to: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
  /** Files the mail carries (the receipt's invoice PDF when the store attaches it). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/**
 * Delivery promise of the thank-you page (docs/screens.md#thank-you-page), repeated in the receipt.
 */
const ESTIMATED_DELIVERY = '5-7 business days';
const DEFAULT_COLOR = '#6366f1';

/** `price × quantity` of a line, exact (prices are decimal strings). */
const lineTotal = (item: OrderItem) =>
  formatUsdc(multiplyUsdc(parseUsdc(item.priceUsdc), item.quantity));

/**
 * Tax of an order: the stored tax, else what the total holds beyond the discounted subtotal and
 * shipping (0.00 when none).
 */
function taxOf(
  order: Pick<
    ReceiptOrder,
    'subtotalUsdc' | 'discountUsdc' | 'shippingUsdc' | 'taxUsdc' | 'totalUsdc'
  >,
): string {
  if (order.taxUsdc !== undefined) return formatUsdc(parseUsdc(order.taxUsdc));
  const tax =
    parseUsdc(order.totalUsdc) -
    parseUsdc(order.subtotalUsdc) +
    parseUsdc(order.discountUsdc ?? '0') -
    parseUsdc(order.shippingUsdc);
  return formatUsdc(tax > 0n ? tax : 0n);
}

/**
 * The store whose name and colours an order's mails carry: the order's store, except for a link
 * order, whose mails carry the link's own; null for none.
 */
export function brandingStoreId(order: {
  source: OrderSource;
  storeId: string | null;
}): string | null {
  return isLinkOrder(order.source) ? null : order.storeId;
}

/** The store name a receipt is sent in: the store's, or the universal link's. */
export function storeNameOf(order: Pick<ReceiptOrder, 'metadata'>, storeName?: string): string {
  return (
    storeName ?? order.metadata?.storeName ?? order.metadata?.externalStoreName ?? 'Your store'
  );
}

function addressLines(address: ShippingAddress | null): string[] {
  if (!address) return [];
  return [
    `${address.firstName} ${address.lastName}`,
    address.street,
    ...addressTailLines(address),
  ].filter((line) => line.trim() !== '');
}

/**
 * The store-order parts of a receipt: the review links (with the web app's public origin) and the
 * store's delivery estimate of the shipping paid.
 */
export function receiptStoreExtras(
  store: { slug: string; settings: StoredStoreSettings } | undefined,
  shippingUsdc: string,
  publicUrl: string | null | undefined,
  country?: string | null,
): Pick<ReceiptStore, 'reviews' | 'deliveryEstimate'> {
  if (!store) return {};
  // Note: the delivery texts of the zone the order shipped to.
  const settings = settingsForCountry(resolveStoreSettings(store.settings), country);
  return {
    reviews: publicUrl ? { origin: publicUrl, slug: store.slug } : null,
    deliveryEstimate: deliveryEstimateOf(settings, shippingUsdc),
  };
}

/** One review link a product of a store order (a product ordered twice gets one). */
function reviewLinksOf(order: ReceiptOrder, store: ReceiptStore): { title: string; url: string }[] {
  if (!store.reviews || !order.reviewToken || isLinkOrder(order.source)) return [];
  const token = order.reviewToken;
  const { origin, slug } = store.reviews;
  const products = new Map(order.items.map((item) => [item.productId, item.title]));
  return [...products].map(([productId, title]) => ({
    title,
    url: `${origin}${reviewFormPath(slug, order.id, productId, token)}`,
  }));
}

/** A time for the mail, in UTC to the minute: `2026-11-28 10:05 UTC`. */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Renders the receipt of a paid order on chain `chainId` (with its files' links when it has any). */
export function renderReceipt(
  order: ReceiptOrder,
  store: ReceiptStore,
  chainId: number,
  downloads?: ReceiptDownloads | null,
): RenderedEmail {
  const number = formatOrderNumber(order.id);
  const color =
    store.primaryColor && isHexColor(store.primaryColor) ? store.primaryColor : DEFAULT_COLOR;
  const explorer = chainFacts(chainId)?.explorerUrl;
  const txUrl = order.paymentTxHash && explorer ? `${explorer}/tx/${order.paymentTxHash}` : null;
  const address = addressLines(order.shippingAddress);
  const subject = `Your receipt from ${store.name}: order ${number}`;
  const tax = taxOf(order);
  const taxLabel = orderTaxLabel({ ...order, taxUsdc: tax });
  const discount =
    order.discountCode && order.discountUsdc && order.discountUsdc !== '0.00'
      ? { label: `Discount (${order.discountCode})`, amount: `−${order.discountUsdc}` }
      : null;
  const estimate = store.deliveryEstimate ?? ESTIMATED_DELIVERY;
  const reviewLinks = reviewLinksOf(order, store);
  const files = downloads && downloads.files.length > 0 ? downloads : null;
  const until = files ? utcMinute(files.expiresAt) : '';

  const text = [
    `Thank you for your order from ${store.name}.`,
    '',
    `Order ${number}`,
    ...order.items.map(
      (item) =>
        `${item.title} × ${item.quantity}: ${lineTotal(item)} USDC (${item.priceUsdc} each)`,
    ),
    '',
    `Subtotal: ${order.subtotalUsdc} USDC`,
    ...(discount ? [`${discount.label}: ${discount.amount} USDC`] : []),
    `Shipping: ${order.shippingUsdc} USDC`,
    ...(tax !== '0.00' ? [`${taxLabel}: ${tax} USDC`] : []),
    `Total paid: ${order.totalUsdc} USDC`,
    'Payment method: USDC (Cryptocurrency)',
    ...(order.paymentTxHash ? [`Payment transaction: ${txUrl ?? order.paymentTxHash}`] : []),
    ...(files
      ? [
          '',
          `Your downloads (these links work for an hour, until ${until}):`,
          ...files.files.map((file) => `${file.title} (${file.fileName}): ${file.url}`),
          `After that, open your order for fresh links: ${files.orderPageUrl}`,
        ]
      : []),
    ...(address.length > 0
      ? ['', 'Shipping to:', ...address, `Estimated delivery: ${estimate}`]
      : []),
    ...(reviewLinks.length > 0
      ? [
          '',
          'Review your items (marked as a verified purchase):',
          ...reviewLinks.map((link) => `${link.title}: ${link.url}`),
        ]
      : []),
    '',
    store.replyTo
      ? `Questions? Reply to this email to reach ${store.name}.`
      : `Questions? Contact ${store.name}.`,
  ].join('\n');

  const e = escapeHtml;
  const rows = order.items
    .map(
      (item) =>
        `<tr><td style="padding:6px 0">${e(item.title)} × ${item.quantity}</td>` +
        `<td style="padding:6px 0;text-align:right">${lineTotal(item)} USDC</td></tr>`,
    )
    .join('');
  const total = (label: string, value: string, bold = false) =>
    `<tr><td style="padding:4px 0${bold ? ';font-weight:700' : ''}">${label}</td>` +
    `<td style="padding:4px 0;text-align:right${bold ? ';font-weight:700' : ''}">${value} USDC</td></tr>`;
  const tx = order.paymentTxHash
    ? `<p style="margin:16px 0 0;font-size:13px;word-break:break-all">Payment transaction: ${
        txUrl ? `<a href="${e(txUrl)}">${e(order.paymentTxHash)}</a>` : e(order.paymentTxHash)
      }</p>`
    : '';
  const shipping =
    address.length > 0
      ? `<h2 style="font-size:15px;margin:24px 0 8px">Shipping to</h2><p style="margin:0">${address
          .map(e)
          .join('<br>')}</p><p style="margin:8px 0 0">Estimated delivery: ${e(estimate)}</p>`
      : '';
  const downloadsHtml = files
    ? `<h2 style="font-size:15px;margin:24px 0 8px">Your downloads</h2><ul style="margin:0;padding-left:18px">${files.files
        .map(
          (file) =>
            `<li><a href="${e(file.url)}">Download ${e(file.title)}</a> <span style="color:#52525b">(${e(file.fileName)})</span></li>`,
        )
        .join(
          '',
        )}</ul><p style="margin:8px 0 0;font-size:13px">These links work for an hour, until ${e(until)}. After that, <a href="${e(files.orderPageUrl)}">open your order</a> for fresh links.</p>`
    : '';
  const reviewsHtml =
    reviewLinks.length > 0
      ? `<h2 style="font-size:15px;margin:24px 0 8px">Review your items</h2><p style="margin:0 0 4px;font-size:13px">Your review is marked as a verified purchase.</p><ul style="margin:0;padding-left:18px">${reviewLinks
          .map((link) => `<li><a href="${e(link.url)}">Review ${e(link.title)}</a></li>`)
          .join('')}</ul>`
      : '';
  const html = `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-top:6px solid ${color};padding:24px">
<h1 style="font-size:20px;margin:0 0 4px">${e(store.name)}</h1>
<p style="margin:0 0 16px">Thank you for your order. Your payment is confirmed.</p>
<p style="margin:0 0 8px;font-weight:700">Order ${e(number)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;font-size:14px">${rows}</table>
<hr style="border:0;border-top:1px solid #e4e4e7;margin:12px 0">
<table role="presentation" style="width:100%;border-collapse:collapse;font-size:14px">${total('Subtotal', order.subtotalUsdc)}${discount ? total(e(discount.label), discount.amount) : ''}${total('Shipping', order.shippingUsdc)}${tax !== '0.00' ? total(taxLabel, tax) : ''}${total('Total paid', order.totalUsdc, true)}</table>
<p style="margin:12px 0 0;font-size:13px">Payment method: USDC (Cryptocurrency)</p>${tx}${downloadsHtml}${shipping}${reviewsHtml}
<p style="margin:24px 0 0;font-size:13px;color:#52525b">${
    store.replyTo
      ? `Questions? Reply to this email to reach ${e(store.name)}.`
      : `Questions? Contact ${e(store.name)}.`
  }</p>
</div></body></html>`;

  return {
    to: order.customerEmail,
    replyTo: store.replyTo ?? undefined,
    subject,
    text,
    html,
  };
}
