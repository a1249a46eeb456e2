// Waiting for an x402 payment's row to move (settled, failed, served): woken by the notification
// the worker sends on X402_SETTLED_CHANNEL when it records a settlement, and the one the API sends
// when it keeps a resource's answer, so a payer's request answers as soon as the row commits
// instead of on the next poll. A slow re-read stays as the safety net for a notification lost
// while the listening connection was down; without LISTEN the wait polls as before.
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { x402Payments } from '../../db/schema.ts';
import { X402_SETTLED_CHANNEL } from '../../payments/x402-settlement.ts';

type PaymentRow = typeof x402Payments.$inferSelect;
type Client = Database['$client'];

/** Re-read while listening (a lost notification costs at most this). */
const LISTENING_REREAD_MS = 250;
/** Re-read when LISTEN is not available. */
const POLL_MS = 15;

interface RowWaits {
  /** Resolves true once listening, false when LISTEN failed (the waits poll). */
  listening: Promise<boolean>;
  /** Waiters by payment id. */
  byId: Map<string, Set<() => void>>;
}

const waitsByClient = new WeakMap<Client, RowWaits>();

/** The one listener of a database client, started with its first wait. */
function waitsOf(client: Client): RowWaits {
  const known = waitsByClient.get(client);
  if (known) return known;
  const byId = new Map<string, Set<() => void>>();
  const wake = (set: Set<() => void> | undefined) => {
    for (const resolve of set ?? []) resolve();
  };
  const wakeAll = () => {
    for (const set of byId.values()) wake(set);
  };
  const waits: RowWaits = {
    byId,
    // Note: after a reconnection every waiter reads its row again (notifications sent while the
    // connection was down are lost).
    listening: client
      .listen(X402_SETTLED_CHANNEL, (id) => wake(byId.get(id)), wakeAll)
      .then(
        () => true,
        () => {
          waitsByClient.delete(client);
          return false;
        },
      ),
  };
  waitsByClient.set(client, waits);
  return waits;
}

/** A signal for `id`, armed before the row is read so that no notification falls between. */
function arm(waits: RowWaits, id: string): { fired: Promise<void>; disarm: () => void } {
  let wake = () => {};
  const fired = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const set = waits.byId.get(id) ?? new Set();
  set.add(wake);
  waits.byId.set(id, set);
  const disarm = () => {
    set.delete(wake);
    if (set.size === 0 && waits.byId.get(id) === set) waits.byId.delete(id);
  };
  return { fired, disarm };
}

/**
 * Reads the row until `done` holds or the time is up; between reads it waits for the row's
 * notification (or `rereadMs`, the safety net).
 */
export async function waitForRow(
  db: Database,
  id: string,
  done: (row: PaymentRow) => boolean,
  timeoutMs: number,
  rereadMs = LISTENING_REREAD_MS,
): Promise<PaymentRow> {
  const deadline = Date.now() + timeoutMs;
  const waits = waitsOf(db.$client);
  const listening = await waits.listening;
  for (;;) {
    const signal = listening ? arm(waits, id) : undefined;
    try {
      const [row] = await db.select().from(x402Payments).where(eq(x402Payments.id, id));
      if (!row) throw new Error(`x402 payment ${id} vanished`);
      const left = deadline - Date.now();
      if (done(row) || left <= 0) return row;
      const pause = Math.min(listening ? rereadMs : POLL_MS, left);
      await Promise.race([signal?.fired, Bun.sleep(pause)]);
    } finally {
      signal?.disarm();
    }
  }
}

/** Tells the waiters of `id` that its row moved (after the change committed). */
export async function notifyRowMoved(db: Database, id: string): Promise<void> {
  await db.execute(sql`select pg_notify(${X402_SETTLED_CHANNEL}, ${id})`);
}
