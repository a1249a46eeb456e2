// Remembered shopper details (SPEC §3 cart state): the shipping address typed at the last
// checkout, so the next checkout starts filled in on this device.
import { SavedShippingAddressSchema } from '@store/shared';
import * as v from 'valibot';
import { openDb } from './open.ts';

/** Shipping details remembered between checkouts; every field optional. */
export type SavedShippingAddress = v.InferOutput<typeof SavedShippingAddressSchema>;

/** The address saved by the last checkout on this device (empty when none). */
export async function readSavedShippingAddress(): Promise<SavedShippingAddress> {
  const row = await (await openDb()).settings.get('shippingAddress');
  const parsed = v.safeParse(SavedShippingAddressSchema, row?.value);
  return parsed.success ? parsed.output : {};
}

/** Remembers the address of a checkout for the next one. */
export async function saveShippingAddress(address: SavedShippingAddress): Promise<void> {
  await (await openDb()).settings.put({ key: 'shippingAddress', value: address });
}
