// Runs the outbox replay: one replay at a time in this tab, one at a time across tabs (Web Locks),
// and tells listeners what each replay did. Triggers (online event, timer) live in use-outbox-sync.
import { type ReplayReport, replayOutbox, type Sender } from './replay.ts';

type Listener = (report: ReplayReport, userId: string) => void;

const listeners = new Set<Listener>();
let running: Promise<void> | null = null;
let again = false;
let sender: Sender | undefined;

/** Calls `listener` after every replay; answers an unsubscribe. */
export function onReplay(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tests swap the network sender; undefined restores the real one. */
export function setSender(next: Sender | undefined): void {
  sender = next;
}

async function withLock<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return run();
  return locks.request('admin-outbox', run) as Promise<T>;
}

/** Replays the merchant's outbox now; a call during a replay runs one more pass after it. */
export function syncNow(userId: string): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      do {
        again = false;
        const report = await withLock(() => replayOutbox(userId, sender));
        for (const listener of listeners) listener(report, userId);
      } while (again);
    } finally {
      running = null;
    }
  })();
  return running;
}
