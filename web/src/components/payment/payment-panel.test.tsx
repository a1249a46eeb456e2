import { PAYMENT_MESSAGES } from '@store/shared';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { PaymentPanel } from './payment-panel.tsx';
import type { PaymentSession } from './use-payment.ts';

const ORDER = {
  id: 'order-1',
  storeId: 'store-1',
  customerEmail: 'ada@example.com',
  shippingAddress: null,
  items: [{ productId: 'p1', title: 'Mug', priceUsdc: '10.80', quantity: 1 }],
  subtotalUsdc: '10.00',
  shippingUsdc: '0.00',
  totalUsdc: '10.80',
  status: 'reversed' as const,
};

function session(status: string): PaymentSession {
  return {
    status: 'waiting',
    wallet: {
      address: '0xAbC0000000000000000000000000000000000001',
      expectedAmount: '10.80',
      chain: 'base',
      expiredAt: '2099-01-01T00:00:00.000Z',
    },
    expiredAt: '2099-01-01T00:00:00.000Z',
    lastCheck: {
      paymentDetected: false,
      status,
      receivedAmount: '0.000000',
      expectedAmount: '10.80',
      expiredAt: '2099-01-01T00:00:00.000Z',
    },
    checkNow: async () => {},
    tryAgain: () => {},
    expire: () => {},
  } as PaymentSession;
}

async function render(status: string) {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <PaymentPanel
        order={ORDER}
        session={session(status)}
        partnerOrderId="ORDER-1"
        gasEstimateUsd="0.02"
      />,
    );
  });
  const text = container.textContent ?? '';
  const alert = container.querySelector('[role="alert"]')?.textContent ?? null;
  await act(async () => root.unmount());
  container.remove();
  return { text, alert };
}

describe('a payment a reorg took away', () => {
  it('tells the shopper it was reversed, in an alert', async () => {
    const { alert } = await render('reversed');
    expect(alert).toContain(PAYMENT_MESSAGES.reversedCard.title);
    expect(alert).toContain('no longer exists');
  });

  it('shows no such alert for a payment still waiting', async () => {
    const { text } = await render('waiting');
    expect(text).not.toContain(PAYMENT_MESSAGES.reversedCard.title);
  });
});
