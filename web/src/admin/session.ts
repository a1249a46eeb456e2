// The merchant's session as the web app sees it: the API's cookie session, remembered in
// IndexedDB so /admin still opens (with unsynced edits) while offline. When it ends, nothing read
// with it stays on the device: not in IndexedDB, not in the service worker's caches.

import * as v from 'valibot';
import { forgetCatalogue } from '../db/catalogue.ts';
import { db } from '../db/db.ts';
import { clearRuntimeCaches } from '../db/sw-caches.ts';
import { ApiError } from '../lib/api.ts';
import { authenticate, fetchMe, signOutRequest } from './api.ts';
import { clearMerchantCaches, clearMerchantData, SESSION_KEY } from './cache.ts';
import { syncNow } from './outbox/sync.ts';
import { type Merchant, MerchantSchema } from './types.ts';

/** How long sign-out waits for the outbox to send what is still pending. */
const SIGN_OUT_SYNC_MS = 5000;

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
  // Another merchant's data (cached answers, drafts, outbox) never stays next to this one's.
  await clearMerchantData(merchant.id);
  await db.adminViews.put({
    key: SESSION_KEY,
    userId: merchant.id,
    value: merchant,
    savedAt: Date.now(),
  });
}

/** Deletes what any request made with the session may have left in the shared caches. */
async function clearSessionReads(): Promise<void> {
  await Promise.all([clearRuntimeCaches(), forgetCatalogue()]);
}

/**
 * The API has no session (it expired, or ended in another tab): the remembered session and every
 * cached answer go. Unsynced drafts and the outbox stay for the merchant's next sign-in.
 */
async function forget(): Promise<void> {
  await clearMerchantCaches();
  await clearSessionReads();
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

/**
 * Signs out, then forgets everything of the merchant's on this device: cached answers, drafts and
 * the outbox in IndexedDB, the cached catalogue and the service worker's runtime caches. Edits
 * still pending get one last chance to sync first; conflicts and refused edits are dropped.
 */
export async function endSession(): Promise<void> {
  const merchant = await rememberedMerchant();
  if (merchant) {
    const synced = syncNow(merchant.id).catch(() => undefined);
    await Promise.race([synced, new Promise((resolve) => setTimeout(resolve, SIGN_OUT_SYNC_MS))]);
  }
  await signOutRequest();
  await clearMerchantData();
  await clearSessionReads();
}
