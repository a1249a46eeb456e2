// The receipt's content: lines and totals, the transaction linked on Base's explorer (not on the
// local chain), the shipping address, and shopper or merchant text that cannot inject HTML.
import { describe, expect, test } from 'bun:test';
import { BASE_CHAIN_ID, LOCAL_CHAIN_ID } from '@store/shared';
import { type ReceiptOrder, renderReceipt } from './receipt.ts';

const TX = `0x${'ab'.repeat(32)}`;
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
