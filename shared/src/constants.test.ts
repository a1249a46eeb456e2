import { describe, expect, it } from 'vitest';
import * as c from './constants.ts';
import { parseUsdc } from './money.ts';

describe('constants', () => {
  it('fees, tax and USDC', () => {
    expect(c.PLATFORM_FEE_BPS).toBe(200n);
    expect(c.ESTIMATED_TAX_BPS).toBe(800n);
    expect(c.USDC_DECIMALS).toBe(6);
    expect(c.USDC_UNIT).toBe(1_000_000n);
    expect(c.BASE_USDC_ADDRESS).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect(c.BASE_SEPOLIA_USDC_ADDRESS).toBe('0x036CbD53842c5426634e7929541eC2318f3dCF7e');
    expect(c.USDC_ADDRESSES[8453]).toBe(c.BASE_USDC_ADDRESS);
    expect(c.USDC_ADDRESSES[84532]).toBe(c.BASE_SEPOLIA_USDC_ADDRESS);
    expect(c.DEFAULT_CHAIN).toBe('base');
  });

  it('timings', () => {
    expect(c.PAYMENT_POLL_INTERVAL_MS).toBe(10_000);
    expect(c.CONFIRMATION_REDIRECT_DELAY_MS).toBe(2000);
    expect(c.WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(c.PAYMENT_COUNTDOWN_SECONDS).toBe(21_600);
    expect(c.PAYMENT_RETRY_COUNTDOWN_SECONDS).toBe(900);
    expect(c.PAYMENT_WINDOW_DAYS).toBe(7);
    expect(c.TOAST).toMatchObject({ limit: 1, durationMs: 5000, removeDelayMs: 1_000_000 });
    expect(c.TOAST.swipeThresholdPx).toBe(50);
  });

  it('theme, QR and UI limits', () => {
    expect(c.DEFAULT_THEME).toBe('dark');
    expect(c.DEFAULT_COLORS).toEqual({
      primary: '#6366f1',
      secondary: '#8b5cf6',
      accent: '#06b6d4',
    });
    expect(c.QR_CODE).toMatchObject({ size: 192, margin: 2 });
    expect(c.DESCRIPTION_TRUNCATE_LENGTH).toBe(100);
    expect(c.RECENT_ORDERS_LIMIT).toBe(5);
    expect(c.SKELETON_CARD_COUNT).toBe(8);
    expect(c.MAX_QUANTITY_FALLBACK).toBe(99);
    expect(c.DEMO_ITEM_PRICE_USDC).toBe('0.25');
    expect(c.IMAGE_HINTS.logo.maxBytes).toBe(2 * 1024 * 1024);
    expect(c.IMAGE_HINTS.product.maxBytes).toBe(5 * 1024 * 1024);
  });

  it('shipping options agree between string and base-unit prices', () => {
    expect(c.SHIPPING_OPTIONS.free.delivery).toBe('7-10 business days');
    expect(c.SHIPPING_OPTIONS.standard.delivery).toBe('5-7 business days');
    expect(c.SHIPPING_OPTIONS.express.delivery).toBe('2-3 business days');
    for (const method of c.SHIPPING_METHODS) {
      const option = c.SHIPPING_OPTIONS[method];
      expect(parseUsdc(option.priceUsdc)).toBe(option.baseUnits);
    }
    expect(c.SHIPPING_OPTIONS.standard.priceUsdc).toBe('12.99');
    expect(c.SHIPPING_OPTIONS.express.priceUsdc).toBe('24.99');
  });
});
