import { PAYMENT_MESSAGES } from '@store/shared';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { PaymentPanel } from './payment-panel.tsx';
import type { PaymentSession } from './use-payment.ts';

const ORDER = {
  id: 'order-1',
  storeId: 'store-1',
  source: 'storefront' as const,
  payeeAddress: null,
  customerEmail: 'ada@example.com',
  shippingAddress: null,
  items: [{ productId: 'p1', title: 'Mug', priceUsdc: '10.80', quantity: 1 }],
  subtotalUsdc: '10.00',
  shippingUsdc: '0.00',
  totalUsdc: '10.80',
  status: 'reversed' as const,
  discountCode: null,
  discountUsdc: '0.00',
  taxUsdc: '0.80',
  paymentChain: null,
  paymentTxHash: null,
  paymentAddress: null,
  metadata: null,
  createdAt: '2026-01-15T10:00:00.000Z',
  updatedAt: '2026-01-15T10:00:00.000Z',
};

function session(status: string, receivedAmount = '0.000000', exception = 'none'): PaymentSession {
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
      receivedAmount,
      expectedAmount: '10.80',
      exception,
      expiredAt: '2099-01-01T00:00:00.000Z',
    },
    checkNow: async () => {},
    tryAgain: () => {},
    expire: () => {},
  } as PaymentSession;
}

async function render(status: string, receivedAmount?: string, exception?: string) {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <PaymentPanel
        order={ORDER}
        session={session(status, receivedAmount, exception)}
        partnerOrderId="ORDER-1"
      />,
    );
  });
  const text = container.textContent ?? '';
  const alert = container.querySelector('[role="alert"]')?.textContent ?? null;
  const heading = container.querySelector('#send-title')?.textContent ?? null;
  const amount = container.querySelector('[data-testid="payment-amount"]')?.textContent ?? null;
  const note = container.querySelector('[data-testid="amount-note"]')?.textContent ?? null;
  const openInWallet =
    container.querySelector<HTMLAnchorElement>('[data-testid="open-in-wallet"]')?.href ?? null;
  const walletButton = [...container.querySelectorAll('button')].some(
    (b) => b.textContent === 'Pay with browser wallet',
  );
  // What Copy Amount puts on the clipboard.
  const writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  const copy = [...container.querySelectorAll('button')].find(
    (b) => b.textContent === 'Copy Amount',
  );
  await act(async () => copy?.click());
  const copied = writeText.mock.calls[0]?.[0] ?? null;
  await act(async () => root.unmount());
  container.remove();
  return { text, alert, heading, amount, note, copied, openInWallet, walletButton };
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

describe('the payment details', () => {
  it('claim no network fee nobody measured, and no dollar amount', async () => {
    const { text } = await render('waiting');
    expect(text).toContain('Payment Details');
    expect(text).not.toContain('Network fee');
    expect(text).not.toContain('$');
  });
});

describe('a payment short of the total', () => {
  it('asks for the remaining amount, exact, in the big amount and Copy Amount', async () => {
    const view = await render('underpaid', '5.123456');
    expect(view.heading).toBe('Send the remaining');
    expect(view.amount).toBe('5.676544 USDC');
    expect(view.copied).toBe('5.676544');
    expect(view.note).toBe(
      'Received 5.123456 of 10.80 USDC. Send the remaining 5.676544 USDC to the same address to complete the payment.',
    );
  });

  it('uses one format for whole cents too', async () => {
    const view = await render('underpaid', '10.000000');
    expect(view.amount).toBe('0.80 USDC');
    expect(view.note).toBe(
      'Received 10.00 of 10.80 USDC. Send the remaining 0.80 USDC to the same address to complete the payment.',
    );
  });

  it('asks for the total while nothing has arrived', async () => {
    const view = await render('waiting');
    expect(view.heading).toBe('Send exactly');
    expect(view.amount).toBe('10.80 USDC');
    expect(view.copied).toBe('10.80');
    expect(view.note).toBeNull();
  });
});

describe('a payment above the total', () => {
  it('tells the shopper how much more they sent', async () => {
    const view = await render('received', '12.000000', 'overpaid');
    expect(view.note).toBe(
      'You sent 12.00 USDC, 1.20 USDC more than the 10.80 USDC due. Your order is paid. The extra 1.20 USDC stays on the payment address for you; a link to send it back to your wallet appears on this page and in your email.',
    );
  });

  it('does not call it paid before it counts', async () => {
    const view = await render('detected_pending_processing', '11.000000', 'overpaid');
    expect(view.note).toBe(
      'You sent 11.00 USDC, 0.20 USDC more than the 10.80 USDC due. The extra 0.20 USDC will stay on the payment address for you; a link to send it back to your wallet appears on this page and in your email.',
    );
  });

  it('keeps the note once the funds moved on', async () => {
    const view = await render('forwarded', '12.000000', 'overpaid');
    expect(view.note).toContain('Your order is paid. The extra 1.20 USDC');
  });

  it('reads the exception, not the amounts: a later top-up to an accepted short payment is no overpayment of the order', async () => {
    const view = await render('received', '12.000000', 'accepted_underpaid');
    expect(view.note).toBeNull();
  });

  it('says nothing of an excess the API does not report', async () => {
    const view = await render('received', '12.000000', 'none');
    expect(view.note).toBeNull();
  });
});

describe('one-tap pay', () => {
  const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
  const health = () =>
    vi.fn(async () =>
      Response.json({ status: 'ok', chain: { chainId: 8453, usdc: USDC }, demo: {} }),
    );

  it('carries an EIP-681 request for the remaining amount on the API chain', async () => {
    vi.stubGlobal('fetch', health());
    try {
      const view = await render('underpaid', '5.123456');
      expect(view.openInWallet).toBe(
        `ethereum:${USDC}@8453/transfer?address=0xAbC0000000000000000000000000000000000001&uint256=5676544`,
      );
      // No wallet extension in this browser: no wallet button.
      expect(view.walletButton).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('offers the browser wallet when one is injected', async () => {
    vi.stubGlobal('fetch', health());
    vi.stubGlobal('ethereum', { request: async () => null });
    try {
      const view = await render('waiting');
      expect(view.walletButton).toBe(true);
      expect(view.openInWallet).toMatch(/&uint256=10800000$/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
