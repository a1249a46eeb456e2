import { describe, expect, it } from 'vitest';
import * as m from './messages.ts';

/** Every string leaf of a message group. */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Object.values(value as Record<string, unknown>).flatMap(leaves);
}

describe('messages', () => {
  it('keeps the texts byte-for-byte', () => {
    expect(m.STORE_FORM_MESSAGES.slugFormat).toBe(
      'Slug can only contain lowercase letters, numbers, and hyphens',
    );
    expect(m.PAYMENT_MESSAGES.notDetected.description).toBe(
      "Please ensure you've sent the exact amount to the correct address",
    );
    expect(m.ORDER_NOT_FOUND.description).toBe("The order you're looking for doesn't exist.");
    expect(m.PAGE_TEXTS.noProducts.description).toBe("This store doesn't have any products yet.");
    expect(m.CHECKOUT_MESSAGES.calculationError.description).toBe(
      'Unable to calculate order total. Please refresh and try again.',
    );
    expect(m.SUCCESS_TOASTS.storeCreated.description).toBe('Your new store is ready for products!');
  });

  it('keeps the checkout, URL and builder texts', () => {
    expect(m.CHECKOUT_MESSAGES).toEqual({
      cartEmpty: 'Cart is empty',
      calculationError: {
        title: 'Calculation Error',
        description: 'Unable to calculate order total. Please refresh and try again.',
      },
      storeError: {
        title: 'Store Error',
        description: 'Unable to identify store. Please refresh and try again.',
      },
    });
    expect(Object.values(m.CHECKOUT_URL_MESSAGES)).toEqual([
      'Missing required parameters: storeName, items, and paymentAddress are required',
      'Invalid items format. Items must be valid JSON array.',
      'Invalid payment address format. Must be a valid Ethereum address.',
      'Failed to parse checkout parameters',
    ]);
    expect(Object.values(m.LINK_BUILDER_MESSAGES)).toEqual([
      'Error',
      'Store name is required',
      'Payment address is required',
      'External order ID is required',
      'Webhook URL is required',
      'At least one complete item is required',
      'Failed to copy link',
    ]);
  });

  it('keeps the toasts and errors', () => {
    expect(Object.values(m.FAILURE_TOASTS)).toEqual([
      'Failed to create store',
      'Failed to update store',
      'Failed to add product',
      'Failed to create order',
    ]);
    expect(m.PAYMENT_MESSAGES.walletGenerationFailed).toEqual({
      title: 'Payment Error',
      description: 'Failed to generate payment wallet. Please try again.',
    });
    expect(m.PAYMENT_MESSAGES.assignWalletFailed).toBe(
      'Failed to assign payment wallet to existing order',
    );
    expect(m.PAYMENT_MESSAGES.universalWalletFailed).toBe(
      'Failed to create universal wallet payment',
    );
    expect(m.PAYMENT_MESSAGES.checkStatusFailed).toBe('Failed to check payment status');
    expect(m.PAYMENT_MESSAGES.checkStatusToast).toEqual({
      title: 'Unable to check payment status',
      description: 'Please try again in a moment',
    });
    expect(m.PAYMENT_MESSAGES.missingOrderId).toBe('Failed to get order ID for payment');
    expect(m.PAYMENT_MESSAGES.storeConfigMissing).toBe('Store configuration not available');
    expect(m.PAYMENT_MESSAGES.failedCard.description).toBe(
      'The payment could not be processed or has expired.',
    );
    expect(m.SUCCESS_TOASTS.orderCreated).toEqual({
      title: 'Order created successfully',
      description: 'Redirecting to payment...',
    });
    expect(m.SUCCESS_TOASTS.cartCleared.title).toBe('Cart cleared');
  });

  it('uses straight ASCII apostrophes only', () => {
    const all = Object.values(m).flatMap(leaves);
    expect(all.length).toBeGreaterThan(60);
    for (const text of all) expect(text).not.toMatch(/[\u2018\u2019\u201c\u201d]/);
  });
});
