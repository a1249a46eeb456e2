// Which look an order page takes when no store layout gives one (docs/screens.md#themes).
import { isLinkOrder, type Order, type PublicStore } from '@store/shared';
import type { StoreTheme } from './theme.ts';

/** A universal link's order's look (from its metadata); undefined for store orders. */
export function themeOfOrder(order: Pick<Order, 'metadata' | 'source'>): StoreTheme | undefined {
  const meta = order.metadata;
  if (!isLinkOrder(order.source)) return undefined;
  return {
    theme: meta?.theme ?? null,
    primaryColor: meta?.colors?.primary ?? null,
    secondaryColor: meta?.colors?.secondary ?? null,
    accentColor: meta?.colors?.accent ?? null,
  };
}

/** The external store's display name and logo of a universal order. */
export function brandOfOrder(order: Pick<Order, 'metadata'>): {
  name: string;
  logoUrl?: string | null;
} {
  const meta = order.metadata;
  return {
    name: meta?.externalStoreName ?? meta?.storeName ?? 'Checkout',
    logoUrl: meta?.logoUrl ?? null,
  };
}

/** The thank-you page's theme rule: the first store whose theme is light, else the first store. */
export function pickThankYouStore(stores: readonly PublicStore[]): PublicStore | undefined {
  return stores.find((store) => store.theme === 'light') ?? stores[0];
}
