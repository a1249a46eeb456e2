// The receipt's content: lines and totals, the transaction linked on Base's explorer (not on the
// local chain), the shipping address, and shopper or merchant text that cannot inject HTML.
import { describe, expect, test } from 'bun:test';
import { BASE_CHAIN_ID, LOCAL_CHAIN_ID } from '@store/shared';
import { type ReceiptOrder, receiptStoreExtras, renderReceipt } from './receipt.ts';

const TX = `0x${'ab'.repeat(32)}`;
const TOKEN = 'c0ffee'.repeat(10).concat('beef');
const order: ReceiptOrder = {
  id: '12345678-90ab-cdef-1234-56789abcdef0',
  customerEmail: 'ann@example.com',
  shippingAddress: {
    firstName: 'Ann',
    lastName: '<b>Lee</b>',
    email: 'ann@example.com',
    phone: '555',
    street: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
  } as ReceiptOrder['shippingAddress'],
  items: [
    { productId: 'p1', title: 'Mug <script>', priceUsdc: '12.50', quantity: 3 },
    { productId: 'p2', title: 'Tea', priceUsdc: '0.99', quantity: 1 },
  ],
  subtotalUsdc: '38.49',
  shippingUsdc: '5.00',
  totalUsdc: '46.57',
  paymentTxHash: TX,
  metadata: null,
  source: 'storefront',
  reviewToken: TOKEN,
};
const store = { name: 'Mugs & Co', primaryColor: '#10b981', replyTo: 'help@mugs.test' };

describe('renderReceipt', () => {
  test('lists each line with its total, the totals and the transaction on Basescan', () => {
    const mail = renderReceipt(order, store, BASE_CHAIN_ID);
    expect(mail.to).toBe('ann@example.com');
    expect(mail.replyTo).toBe('help@mugs.test');
    expect(mail.subject).toBe('Your receipt from Mugs & Co: order #9abcdef0');
    expect(mail.text).toContain('Mug <script> × 3: 37.50 USDC (12.50 each)');
    expect(mail.text).toContain('Tea × 1: 0.99 USDC');
    // Subtotal + shipping + tax = the total paid (the 8% tax of a store order, 3.08 here).
    expect(mail.text).toContain('Subtotal: 38.49 USDC\nShipping: 5.00 USDC\nTax: 3.08 USDC');
    expect(mail.text).toContain('Total paid: 46.57 USDC');
    expect(mail.html).toContain('Tax</td>');
    expect(mail.text).toContain(`https://basescan.org/tx/${TX}`);
    expect(mail.html).toContain(`href="https://basescan.org/tx/${TX}"`);
    expect(mail.text).toContain('Springfield, IL 62701');
  });

  test('shows the discount code and what it took off; the tax is what the total holds beyond', () => {
    // 38.49 - 3.85 (10%) = 34.64; + 5.00 shipping; tax 2.77 (8%) = 42.41.
    const discounted = {
      ...order,
      discountCode: 'SAVE10',
      discountUsdc: '3.85',
      totalUsdc: '42.41',
    };
    const mail = renderReceipt(discounted, store, BASE_CHAIN_ID);
    expect(mail.text).toContain('Subtotal: 38.49 USDC\nDiscount (SAVE10): −3.85 USDC\n');
    expect(mail.text).toContain('Tax: 2.77 USDC\nTotal paid: 42.41 USDC');
    expect(mail.html).toContain('Discount (SAVE10)</td>');
    expect(renderReceipt(order, store, BASE_CHAIN_ID).text).not.toContain('Discount');
  });

  test('escapes every shopper and merchant text in the HTML', () => {
    const mail = renderReceipt(order, { ...store, name: '<img src=x onerror=alert(1)>' }, 8453);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>Lee</b>');
    expect(mail.html).toContain('Mug &lt;script&gt;');
  });

  test('on the local chain the transaction is shown without an explorer link', () => {
    const mail = renderReceipt(order, { ...store, replyTo: null }, LOCAL_CHAIN_ID);
    expect(mail.text).toContain(`Payment transaction: ${TX}`);
    expect(mail.html).not.toContain('href=');
    expect(mail.replyTo).toBeUndefined();
  });
});

describe('review links', () => {
  const reviews = { origin: 'https://shop.example', slug: 'mugs' };

  test('a store order links each product to its review form, once each', () => {
    const twice = {
      ...order,
      items: [...order.items, { ...order.items[0], quantity: 1 }],
    } as ReceiptOrder;
    const mail = renderReceipt(twice, { ...store, reviews }, BASE_CHAIN_ID);
    const url = `https://shop.example/store/mugs/review/${order.id}/p1#token=${TOKEN}`;
    expect(mail.text).toContain('Review your items (marked as a verified purchase):');
    expect(mail.text).toContain(`Mug <script>: ${url}`);
    expect(mail.text).toContain(
      `Tea: https://shop.example/store/mugs/review/${order.id}/p2#token=${TOKEN}`,
    );
    expect(mail.text.split(url)).toHaveLength(2);
    expect(mail.html).toContain(`<a href="${url}">Review Mug &lt;script&gt;</a>`);
  });

  test('no links without a review form (universal orders, unknown origin)', () => {
    const universal = { ...order, source: 'signed_link' } as ReceiptOrder;
    expect(renderReceipt(universal, { ...store, reviews }, BASE_CHAIN_ID).text).not.toContain(
      'Review',
    );
    expect(renderReceipt(order, store, BASE_CHAIN_ID).text).not.toContain('Review your items');
    // Without the buyer's token a link would prove nothing: none is sent.
    const tokenless = { ...order, reviewToken: undefined };
    expect(renderReceipt(tokenless, { ...store, reviews }, BASE_CHAIN_ID).text).not.toContain(
      'Review your items',
    );
  });

  test("the store's delivery estimate replaces the default", () => {
    const mail = renderReceipt(order, { ...store, deliveryEstimate: 'Next day' }, BASE_CHAIN_ID);
    expect(mail.text).toContain('Estimated delivery: Next day');
    expect(renderReceipt(order, store, BASE_CHAIN_ID).text).toContain(
      'Estimated delivery: 5-7 business days',
    );
  });
});

describe('receiptStoreExtras', () => {
  test('review links only with a public origin; the estimate of the shipping paid', () => {
    const settings = {
      shippingOptions: {
        free: { enabled: true, priceUsdc: '0.00', delivery: '2 weeks' },
        standard: { enabled: true, priceUsdc: '5.00', delivery: '3-5 days' },
        express: { enabled: false, priceUsdc: '9.00', delivery: 'Next day' },
      },
    };
    expect(receiptStoreExtras({ slug: 'mugs', settings }, '5.00', 'https://shop.example')).toEqual({
      reviews: { origin: 'https://shop.example', slug: 'mugs' },
      deliveryEstimate: '3-5 days',
    });
    expect(receiptStoreExtras({ slug: 'mugs', settings }, '0.00', null)).toEqual({
      reviews: null,
      deliveryEstimate: '2 weeks',
    });
    expect(receiptStoreExtras(undefined, '0.00', 'https://shop.example')).toEqual({});
  });
});

describe('download links', () => {
  const downloads = {
    files: [
      {
        title: 'Guide <pdf>',
        fileName: 'guide.pdf',
        url: 'https://shop.example/api/downloads/o/p?expires=1&sig=a&b',
      },
    ],
    expiresAt: '2026-11-28T10:05:09.000Z',
    orderPageUrl: `https://shop.example/store/mugs/thank-you/${order.id}#token=${TOKEN}`,
  };

  test('a paid order of files lists each link, says when they expire and where fresh ones are', () => {
    const mail = renderReceipt(order, store, BASE_CHAIN_ID, downloads);
    expect(mail.text).toContain(
      'Your downloads (these links work for an hour, until 2026-11-28 10:05 UTC):\n' +
        'Guide <pdf> (guide.pdf): https://shop.example/api/downloads/o/p?expires=1&sig=a&b\n' +
        `After that, open your order for fresh links: ${downloads.orderPageUrl}`,
    );
    expect(mail.html).toContain(
      '<a href="https://shop.example/api/downloads/o/p?expires=1&amp;sig=a&amp;b">Download Guide &lt;pdf&gt;</a>',
    );
    expect(mail.html).toContain('until 2026-11-28 10:05 UTC');
    expect(mail.html).toContain(`<a href="${downloads.orderPageUrl}">open your order</a>`);
  });

  test('no download part without files', () => {
    for (const none of [undefined, null, { ...downloads, files: [] }])
      expect(renderReceipt(order, store, BASE_CHAIN_ID, none).text).not.toContain('download');
  });
});
