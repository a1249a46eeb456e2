// Quantity limits (docs/rules.md#quantity-limits): 1 to the inventory, or to 99 when there is none.
import { MAX_QUANTITY_FALLBACK, MIN_QUANTITY } from './constants.ts';

/** Largest selectable quantity: the inventory, or 99 when inventory is 0, absent or invalid. */
export function maxQuantity(inventory?: number | null): number {
  if (inventory === undefined || inventory === null) return MAX_QUANTITY_FALLBACK;
  if (!Number.isFinite(inventory) || inventory < MIN_QUANTITY) return MAX_QUANTITY_FALLBACK;
  return Math.floor(inventory);
}

/** Clamps a quantity into [1, maxQuantity(inventory)]; non-integers round down, NaN becomes 1. */
export function clampQuantity(quantity: number, inventory?: number | null): number {
  if (Number.isNaN(quantity)) return MIN_QUANTITY;
  const whole = Math.floor(quantity);
  return Math.min(Math.max(whole, MIN_QUANTITY), maxQuantity(inventory));
}

/** True when the minus button is enabled (quantity above 1). */
export function canDecrement(quantity: number): boolean {
  return quantity > MIN_QUANTITY;
}

/** True when the plus button is enabled (quantity below the maximum). */
export function canIncrement(quantity: number, inventory?: number | null): boolean {
  return quantity < maxQuantity(inventory);
}

/** Quantity from a text field: a positive integer, else 1 (the link builder's fallback). */
export function quantityOrDefault(input: string | number | undefined): number {
  const value = typeof input === 'number' ? input : Number.parseInt(input ?? '', 10);
  return Number.isSafeInteger(value) && value >= MIN_QUANTITY ? value : MIN_QUANTITY;
}
