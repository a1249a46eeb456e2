// The merchant's session as the web app sees it: the API's cookie session, remembered in
// IndexedDB so /admin still opens (with unsynced edits) while offline.

import * as v from 'valibot';
import { db } from '../db/db.ts';
import { ApiError } from '../lib/api.ts';
import { authenticate, fetchMe, signOutRequest } from './api.ts';
import { clearMerchantCaches } from './cache.ts';
import { type Merchant, MerchantSchema } from './types.ts';

const SESSION_KEY = 'session';

/** Where the dashboard lives: the default target after signing in. */
export const ADMIN_HOME = '/admin';

/** The `redirect` search value when it is a path of this app, else the dashboard. */
export function safeRedirect(target: string | undefined): string {
  // Note: only same-app paths; "//evil.example" and "/\evil" would leave the site.
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return ADMIN_HOME;
  return target;
}

async function remember(merchant: Merchant): Promise<void> {
  // Another merchant's cached data never stays next to this one's.
  await clearMerchantCaches(merchant.id);
  await db.adminViews.put({
    key: SESSION_KEY,
    userId: merchant.id,
    value: merchant,
    savedAt: Date.now(),
  });
}

async function forget(): Promise<void> {
  await db.adminViews.delete(SESSION_KEY);
  await clearMerchantCaches();
}

/** The merchant remembered on this device by the last successful session check. */
export async function rememberedMerchant(): Promise<Merchant | null> {
  const row = await db.adminViews.get(SESSION_KEY);
  const parsed = v.safeParse(MerchantSchema, row?.value);
  return parsed.success ? parsed.output : null;
}

/** The signed-in merchant: asked of the API, or the remembered one when the API is unreachable. */
export async function resolveSession(): Promise<Merchant | null> {
  try {
    const merchant = await fetchMe();
    if (merchant) await remember(merchant);
    else await forget();
    return merchant;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return rememberedMerchant();
  }
}

/** Signs in (or up) and remembers the merchant. */
export async function startSession(
  mode: 'sign-in' | 'sign-up',
  credentials: { username: string; password: string },
): Promise<Merchant> {
  const merchant = await authenticate(mode, credentials);
  await remember(merchant);
  return merchant;
}

/** Signs out; unsynced drafts stay on the device for the merchant's next sign-in. */
export async function endSession(): Promise<void> {
  await signOutRequest();
  await forget();
}
