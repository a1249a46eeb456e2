// Remembered shopper details (docs/data.md#carts-in-the-browser): the details of a checkout whose
// shopper asked this device to remember them, offered (never filled in unasked) at the next
// checkout. Note: a device is often shared (a family tablet, a shop's kiosk): nothing is kept
// without the shopper's choice, and the checkout offers to forget what is kept.
import { SavedShippingAddressSchema } from '@store/shared';
import * as v from 'valibot';
import { openDb } from './open.ts';

/** Shipping details remembered between checkouts; every field optional. */
export type SavedShippingAddress = v.InferOutput<typeof SavedShippingAddressSchema>;

/** The key of the details a shopper chose to keep. */
const REMEMBERED = 'rememberedShopper';
/** Where earlier versions kept every checkout's details unasked: never read, only removed. */
const LEGACY = 'shippingAddress';

/** The details a shopper of this device chose to keep (empty when none). */
export async function readSavedShippingAddress(): Promise<SavedShippingAddress> {
  const db = await openDb();
  // Note: details kept without asking by an earlier version go, unread.
  await db.settings.delete(LEGACY);
  const row = await db.settings.get(REMEMBERED);
  const parsed = v.safeParse(SavedShippingAddressSchema, row?.value);
  return parsed.success ? parsed.output : {};
}

/** Keeps a checkout's details for the next one (the shopper asked this device to). */
export async function saveShippingAddress(address: SavedShippingAddress): Promise<void> {
  await (await openDb()).settings.put({ key: REMEMBERED, value: address });
}

/** Forgets the kept details (the shopper's choice at the checkout). */
export async function forgetShippingAddress(): Promise<void> {
  const db = await openDb();
  await db.settings.bulkDelete([REMEMBERED, LEGACY]);
}

/** How the checkout names kept details without showing them: "Ada L. (a…@example.com)". */
export function savedDetailsLabel(saved: SavedShippingAddress): string | undefined {
  const name = [saved.firstName, saved.lastName ? `${saved.lastName.slice(0, 1)}.` : '']
    .filter(Boolean)
    .join(' ');
  const [user = '', domain] = (saved.email ?? '').split('@');
  const email = domain ? `${user.slice(0, 1)}…@${domain}` : '';
  if (!name && !email) return undefined;
  return name && email ? `${name} (${email})` : name || email;
}
