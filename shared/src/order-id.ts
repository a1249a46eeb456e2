// Order id helpers: short ids for display and generated external/demo/universal ids.
// Note: `now` and `random` are parameters so callers pass Date.now() and Math.random (or a CSPRNG)
// and tests stay deterministic.
import { SHORT_ORDER_ID_LENGTH } from './constants.ts';

/** A source of uniform numbers in [0, 1), like Math.random. */
export type RandomSource = () => number;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Length of the random suffix of generated ids. */
export const RANDOM_SUFFIX_LENGTH = 9;

/** Last 8 characters of an order id (the whole id when shorter). */
export function shortOrderId(orderId: string): string {
  return orderId.slice(-SHORT_ORDER_ID_LENGTH);
}

/** Last 8 characters uppercased (order number of the universal payment page, on-ramp id of the store page). */
export function shortOrderIdUpper(orderId: string): string {
  return shortOrderId(orderId).toUpperCase();
}

/** Short order id prefixed with # as in the dashboard's Recent Orders table. */
export function formatOrderNumber(orderId: string): string {
  return `#${shortOrderId(orderId)}`;
}

/** A lowercase base-36 suffix drawn from `random`. */
export function randomSuffix(random: RandomSource, length: number = RANDOM_SUFFIX_LENGTH): string {
  let suffix = '';
  for (let i = 0; i < length; i++) {
    const index = Math.min(Math.floor(random() * ALPHABET.length), ALPHABET.length - 1);
    suffix += ALPHABET[Math.max(index, 0)];
  }
  return suffix;
}

/** External order id of the link builder: ORDER-{timestamp}-{RANDOM} (suffix uppercased). */
export function generateExternalOrderId(now: number, random: RandomSource): string {
  return `ORDER-${now}-${randomSuffix(random).toUpperCase()}`;
}

/** External order id of the landing page demo link: demo-{timestamp}-{random}. */
export function generateDemoOrderId(now: number, random: RandomSource): string {
  return `demo-${now}-${randomSuffix(random)}`;
}

/** Product id of a universal order item: universal-{timestamp}-{random}. */
export function generateUniversalProductId(now: number, random: RandomSource): string {
  return `universal-${now}-${randomSuffix(random)}`;
}
