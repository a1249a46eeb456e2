import type { Order } from '@store/shared';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '../test-dom.ts';
import { ThankYouPage } from './thank-you.tsx';

// The API settles on Base mainnet.
vi.stubGlobal(
  'fetch',
  vi.fn(async () =>
    Response.json({
      chain: { chainId: 8453, usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      demo: { payoutAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    }),
  ),
);

const TX = `0x${'ab'.repeat(32)}`;

function order(status: Order['status'], extra: Partial<Order> = {}): Order {
  return {
    id: 'order-1234abcd',
    storeId: 'store-1',
    source: 'storefront',
    payeeAddress: null,
    customerEmail: 'ada@example.com',
    shippingAddress: null,
    items: [{ productId: 'p1', title: 'Mug', priceUsdc: '10.00', quantity: 1 }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.80',
    status,
    discountCode: null,
    discountUsdc: '0.00',
    taxUsdc: '0.80',
    paymentChain: null,
    paymentTxHash: null,
    paymentAddress: null,
    metadata: null,
    createdAt: '2026-01-15T10:00:00.000Z',
    updatedAt: '2026-01-15T10:00:00.000Z',
    ...extra,
  };
}

async function render(subject: Order, settle?: (page: HTMLElement) => void) {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <ThankYouPage
        result={{ state: 'ready', order: subject }}
        home="/store/shop/"
        paymentBase="/store/shop/payment/"
      />,
    );
  });
  if (settle) await waitFor(() => settle(container));
  const page = {
    text: container.textContent ?? '',
    h1: container.querySelector('h1')?.textContent ?? null,
    status: container.querySelector('[data-testid="order-status"]')?.textContent ?? null,
    links: [...container.querySelectorAll('a')].map((a) => ({
      text: a.textContent,
      href: a.getAttribute('href'),
    })),
  };
  await act(async () => root.unmount());
  container.remove();
  return page;
}

describe('the thank-you page of an order not paid yet', () => {
  it('says it is not paid and links to its payment page', async () => {
    const page = await render(order('pending'));
    expect(page.h1).toBe('Your order is not paid yet');
    expect(page.status).toBe('Awaiting Payment');
    expect(page.text).not.toContain('Confirmed');
    expect(page.text).not.toContain('Total Paid');
    expect(page.links).toContainEqual({
      text: 'Go to Payment Page',
      href: '/store/shop/payment/order-1234abcd',
    });
  });

  it('links a universal order to the universal payment page', async () => {
    const page = await render(order('pending', { storeId: null, source: 'unsigned_link' }));
    expect(page.links).toContainEqual({
      text: 'Go to Payment Page',
      href: '/universal-payment/order-1234abcd',
    });
  });
});

describe('the thank-you page of a reversed order', () => {
  it('says the payment was reversed', async () => {
    const page = await render(order('reversed', { paymentTxHash: TX }));
    expect(page.h1).toBe('Your payment was reversed');
    expect(page.status).toBe('Payment Reversed');
    expect(page.text).toContain('no longer exists');
    expect(page.text).not.toContain('Total Paid');
    expect(page.text).not.toContain(TX.slice(0, 10));
  });
});

describe('the thank-you page of a paid order', () => {
  it('keeps its texts and links the payment transaction to the explorer', async () => {
    const page = await render(order('shipped', { paymentTxHash: TX }), (root) => {
      if (!root.querySelector('[data-testid="payment-tx"] a')) throw new Error('no link yet');
    });
    expect(page.h1).toBe('Thank you for your order!');
    expect(page.status).toBe('Confirmed');
    expect(page.text).toContain('Total Paid');
    expect(page.links).toContainEqual({
      text: `${TX.slice(0, 10)}…${TX.slice(-8)}`,
      href: `https://basescan.org/tx/${TX}`,
    });
  });

  it('promises no email when the platform sends no receipts (no mail server)', async () => {
    const page = await render(order('paid', { paymentTxHash: TX }), (root) => {
      if (!root.querySelector('[data-testid="payment-tx"] a')) throw new Error('not loaded yet');
    });
    expect(page.text).not.toContain('A confirmation will be sent');
  });
});
