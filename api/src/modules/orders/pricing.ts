// Prices a store order from the catalogue and the store's settings: lines from stored products,
// shipping from the method the store offers at its price, tax at the store's rate, and the
// client's totals checked against ours (never trusted).
import {
  type DiscountRule,
  discountAmount,
  discountRefusal,
  enabledShippingOptions,
  MAX_QUANTITY_FALLBACK,
  type OrderItem,
  offeredShippingPrice,
  parseUsdc,
  type ResolvedStoreSettings,
  resolveStoreSettings,
  type ShippingMethod,
  STORE_SETTINGS_MESSAGES,
  type StoreCheckoutTotals,
  settingsForCountry,
  storeCheckoutTotals,
} from '@store/shared';
import { methodOffMessage } from '@store/shared/store-checkout';
import { AppError } from '../../http/errors.ts';
import { type CreateOrderBody, ORDER_MESSAGES } from './model.ts';

/** The catalogue fields pricing needs, as stored. */
export interface CatalogueProduct {
  id: string;
  title: string;
  priceUsdc: string;
  imageUrl: string | null;
  /** Units a shopper can buy now (the stock less other orders' holds) when tracked. */
  inventory: number;
  /** Whether `inventory` counts units; untracked products sell up to 99 a line. */
  trackInventory: boolean;
}

/** What the server will store: lines priced from the catalogue and the recomputed totals. */
export interface PricedOrder {
  items: OrderItem[];
  shippingMethod: ShippingMethod;
  totals: StoreCheckoutTotals;
}

const fail = (message: string) => new AppError('validation_failed', message);

/** Refusal of a shipping price that none of the store's methods has. */
export function unknownShippingMessage(settings: ResolvedStoreSettings): string {
  const offered = enabledShippingOptions(settings).map(
    (o) => `${o.label.toLowerCase()} (${o.priceUsdc})`,
  );
  const last = offered.pop();
  return `Shipping must be ${offered.length > 0 ? `${offered.join(', ')} or ${last}` : last}`;
}

/**
 * The chosen method, or the offered one whose price the client sent as `shippingUsdc`; 422 when
 * the store does not offer it.
 */
export function shippingMethodOf(
  body: Pick<CreateOrderBody, 'shippingMethod' | 'shippingUsdc'>,
  settings: ResolvedStoreSettings = resolveStoreSettings({}),
): ShippingMethod {
  if (body.shippingMethod) {
    const option = settings.shipping[body.shippingMethod];
    if (!option.enabled) throw fail(methodOffMessage(settings, body.shippingMethod));
    return body.shippingMethod;
  }
  const amount = parseUsdc(body.shippingUsdc);
  const method = enabledShippingOptions(settings).find((o) => o.baseUnits === amount)?.method;
  if (!method) throw fail(unknownShippingMessage(settings));
  return method;
}

// Note: an untracked product sells up to 99 a line (the fallback); a tracked one at most the
// units left, none when it is sold out (issue 18: tracked stock never oversells).
function checkQuantity(product: CatalogueProduct, quantity: number) {
  // Note: a tracked product too, so one order cannot hold a whole large stock.
  if (quantity > MAX_QUANTITY_FALLBACK)
    throw fail(ORDER_MESSAGES.overLimit(product.title, MAX_QUANTITY_FALLBACK));
  if (product.trackInventory && quantity > product.inventory)
    throw fail(
      product.inventory === 0
        ? ORDER_MESSAGES.soldOut(product.title)
        : ORDER_MESSAGES.outOfStock(product.title, product.inventory),
    );
}

/**
 * Prices the order from `catalogue` (the store's published products), the store's settings (the
 * defaults when none are given) for the shipping address's country (its zone's methods and tax
 * rate, tax included or added) and the discount code the body names (`discount`, checked usable
 * by the caller); 422 on any disagreement, or when the code does not apply to these lines.
 */
export function priceOrder(
  body: CreateOrderBody,
  catalogue: ReadonlyMap<string, CatalogueProduct>,
  storeSettings: ResolvedStoreSettings = resolveStoreSettings({}),
  discount?: DiscountRule,
): PricedOrder {
  const settings = settingsForCountry(storeSettings, body.shippingAddress?.country);
  // Note: a code in the body is priced only with its stored rule; none stored, no order.
  if (body.discountCode !== undefined && discount?.code !== body.discountCode)
    throw new Error('priceOrder: the body names a discount code the caller did not resolve');
  const quantities = new Map<string, number>();
  const items = body.items.map((line): OrderItem => {
    const product = catalogue.get(line.productId);
    if (!product) throw fail(ORDER_MESSAGES.unavailable(line.title));
    const quantity = (quantities.get(product.id) ?? 0) + line.quantity;
    quantities.set(product.id, quantity);
    checkQuantity(product, quantity);
    return {
      productId: product.id,
      title: product.title,
      priceUsdc: product.priceUsdc,
      quantity: line.quantity,
      imageUrl: product.imageUrl,
      // Note: inventory 0 means "not tracked"; a tracked product may sell out before this is paid.
      stockTracked: product.trackInventory,
    };
  });
  const shippingMethod = shippingMethodOf(body, settings);
  const shipping = offeredShippingPrice(settings, shippingMethod) ?? 0n;
  let off = 0n;
  if (discount) {
    const refusal = discountRefusal(items, discount);
    if (refusal) throw fail(refusal);
    off = discountAmount(items, discount);
  }
  const totals = storeCheckoutTotals(
    items,
    shipping,
    settings.taxRateBps,
    off,
    settings.pricesIncludeTax,
  );
  // Note: a price of another zone (or a stale one) is named, so the shopper knows what changed.
  if (settings.zones.length > 0 && parseUsdc(body.shippingUsdc) !== totals.shipping)
    throw fail(
      STORE_SETTINGS_MESSAGES.zoneShippingPrice(
        settings.shipping[shippingMethod].label,
        settings.zone,
        totals.shippingUsdc,
      ),
    );
  const agrees =
    parseUsdc(body.subtotalUsdc) === totals.subtotal &&
    parseUsdc(body.shippingUsdc) === totals.shipping &&
    (body.discountUsdc === undefined || parseUsdc(body.discountUsdc) === totals.discount) &&
    parseUsdc(body.totalUsdc) === totals.total;
  if (!agrees) throw fail(ORDER_MESSAGES.totalsMismatch);
  return { items, shippingMethod, totals };
}
