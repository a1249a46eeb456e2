import { describe, expect, it } from 'vitest';
import {
  buildOnrampUrl,
  buildReturnUrl,
  formatCountdown,
  isConfirmedPaymentStatus,
  secondsUntil,
} from './payment-display.ts';

describe('buildOnrampUrl', () => {
  it('carries wallet, amount in USD, USDC on the network, email, redirect and partner order id', () => {
    const url = new URL(
      buildOnrampUrl({
        network: 'base',
        walletAddress: '0xabc',
        amountUsdc: '34.59',
        customerEmail: 'ada@example.com',
        redirectUrl: 'https://shop.example/payment/1',
        partnerOrderId: 'ABCD1234',
      }),
    );
    expect(url.origin).toBe('https://global.transak.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      walletAddress: '0xabc',
      fiatAmount: '34.59',
      fiatCurrency: 'USD',
      cryptoCurrencyCode: 'USDC',
      network: 'base',
      email: 'ada@example.com',
      redirectURL: 'https://shop.example/payment/1',
      partnerOrderId: 'ABCD1234',
    });
  });
});

describe('countdown', () => {
  it('formats h:mm:ss, with whole days before it', () => {
    expect(formatCountdown(21_600)).toBe('6:00:00');
    expect(formatCountdown(249)).toBe('0:04:09');
    expect(formatCountdown(7 * 24 * 3600)).toBe('7d 0:00:00');
    expect(formatCountdown(7 * 24 * 3600 - 3)).toBe('6d 23:59:57');
    expect(formatCountdown(86_399)).toBe('23:59:59');
    expect(formatCountdown(-5)).toBe('0:00:00');
  });

  it('counts whole seconds to the server expiry and stops at 0', () => {
    const now = Date.parse('2025-01-01T00:00:00.000Z');
    expect(secondsUntil('2025-01-01T01:00:00.900Z', now)).toBe(3600);
    expect(secondsUntil('2024-12-31T00:00:00Z', now)).toBe(0);
    expect(secondsUntil(null, now)).toBeUndefined();
    expect(secondsUntil('soon', now)).toBeUndefined();
  });
});

describe('isConfirmedPaymentStatus', () => {
  it('confirms on paymentDetected, detected/received statuses and forwarded', () => {
    expect(isConfirmedPaymentStatus({ paymentDetected: true, status: 'waiting' })).toBe(true);
    expect(isConfirmedPaymentStatus({ paymentDetected: false, status: 'received' })).toBe(true);
    expect(
      isConfirmedPaymentStatus({ paymentDetected: false, status: 'detected_pending_processing' }),
    ).toBe(true);
    expect(isConfirmedPaymentStatus({ paymentDetected: false, status: 'forwarded' })).toBe(true);
    expect(isConfirmedPaymentStatus({ paymentDetected: false, status: 'underpaid' })).toBe(false);
    expect(isConfirmedPaymentStatus({ paymentDetected: false, status: 'waiting' })).toBe(false);
  });
});

describe('buildReturnUrl', () => {
  it('adds orderId and status=success, keeping the integrator parameters', () => {
    expect(buildReturnUrl('https://shop.example/done?ref=7', 'o-1')).toBe(
      'https://shop.example/done?ref=7&orderId=o-1&status=success',
    );
  });
});
