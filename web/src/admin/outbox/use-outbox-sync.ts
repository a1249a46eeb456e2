// Keeps the merchant's outbox moving while an admin page is open: a replay on mount, when the
// browser comes back online, and every few seconds while entries wait; after a replay the cached
// data is refreshed and background outcomes are announced.
import { FAILURE_TOASTS } from '@store/shared';
import { useEffect } from 'react';
import { db } from '../../db/db.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { refreshAnalytics, refreshProducts, refreshStores } from '../cache.ts';
import type { OutboxRow } from '../types.ts';
import type { ReplayReport } from './replay.ts';
import { isLiveEntry } from './submit.ts';
import { onReplay, syncNow } from './sync.ts';

/** How often waiting entries are retried (the online event alone is not reliable). */
export const RETRY_INTERVAL_MS = 5000;

/** The failure toast title of an entry (docs/messages.md#failure-toasts). */
export function failureTitle(entry: Pick<OutboxRow, 'kind' | 'op'>): string {
  if (entry.kind === 'store')
    return entry.op === 'create' ? FAILURE_TOASTS.createStore : FAILURE_TOASTS.updateStore;
  return entry.op === 'create' ? FAILURE_TOASTS.addProduct : 'Failed to update product';
}

async function refreshAfter(report: ReplayReport, userId: string): Promise<void> {
  const storeIds = new Set<string>();
  for (const { saved } of report.synced)
    storeIds.add('storeId' in saved ? saved.storeId : saved.id);
  await refreshStores(userId);
  await Promise.all(
    [...storeIds].flatMap((id) => [refreshAnalytics(userId, id), refreshProducts(userId, id)]),
  );
}

function announce(report: ReplayReport): void {
  const background = report.synced.filter(({ entry }) => !isLiveEntry(entry.seq));
  const failure = report.failures.find((entry) => !isLiveEntry(entry.seq));
  if (report.conflicts.some((entry) => !isLiveEntry(entry.seq))) {
    toastError('Sync conflict', 'Something you edited offline was changed elsewhere.');
  } else if (failure) {
    toastError(failureTitle(failure), failure.error);
  } else if (background.length > 0) {
    const count = background.length;
    toast({
      title: 'Offline changes synced',
      description: `${count} change${count === 1 ? '' : 's'} saved to your store.`,
    });
  }
}

/** Mount once per admin page tree. */
export function useOutboxSync(userId: string): void {
  useEffect(() => {
    const run = () => {
      syncNow(userId).catch((error: unknown) => console.warn('Outbox replay failed', error));
    };
    const stop = onReplay((report, who) => {
      if (who !== userId) return;
      announce(report);
      if (report.synced.length > 0)
        refreshAfter(report, userId).catch(() => {
          // Offline again: the cached answers stay until the next refresh.
        });
    });
    const retry = async () => {
      const waiting = await db.outbox
        .where('userId')
        .equals(userId)
        .filter((row) => row.status === 'pending')
        .count();
      if (waiting > 0) run();
    };
    const timer = setInterval(() => void retry(), RETRY_INTERVAL_MS);
    window.addEventListener('online', run);
    run();
    return () => {
      stop();
      clearInterval(timer);
      window.removeEventListener('online', run);
    };
  }, [userId]);
}
