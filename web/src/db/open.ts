// The storefront's way to IndexedDB without Dexie on its first paint: the database module (Dexie,
// ~32 kB gzip) is imported on demand, and the live reads of the storefront wait until the page's
// content has been shown and the browser is idle (a write needs it at once; DEFERRED_OPEN_MS caps
// the wait).
// Note: the merchant's pages import db.ts directly; both paths share the one instance.
import { type DependencyList, useEffect, useState } from 'react';
import type { StorefrontDb } from './db.ts';

type DbModule = typeof import('./db.ts');

let loading: Promise<DbModule> | undefined;

/** The database, loading its module now if it is not loaded yet. */
export async function openDb(): Promise<StorefrontDb> {
  loading ??= import('./db.ts');
  return (await loading).db;
}

/** Longest wait for the page's content before the live reads open the database anyway. */
export const DEFERRED_OPEN_MS = 5000;

let releaseGate: (() => void) | undefined;
const gate = new Promise<void>((resolve) => {
  releaseGate = resolve;
});

/** Catalogue reads still on the network. */
let reading = 0;

/** A catalogue read of the page starts: the database waits for it (see `readSettled`). */
export function readStarted(): void {
  reading += 1;
}

/**
 * A catalogue read has settled. Once none is left after the page has had a frame to start the
 * reads that depend on it (the store's products after the store), its content is on screen (or
 * could not be fetched), and the live reads may load the database, when the browser is idle.
 */
export function readSettled(): void {
  reading = Math.max(0, reading - 1);
  if (reading > 0) return;
  const frame = globalThis.requestAnimationFrame ?? ((run: () => void) => setTimeout(run, 16));
  frame(() =>
    setTimeout(() => {
      if (reading > 0) return;
      const idle = globalThis.requestIdleCallback;
      if (idle) idle(() => releaseGate?.(), { timeout: 1000 });
      else releaseGate?.();
    }, 50),
  );
}

let fallbackArmed = false;

/** The database once the page's content has been shown (at most DEFERRED_OPEN_MS from the first ask). */
function openDbDeferred(): Promise<StorefrontDb> {
  if (!fallbackArmed) setTimeout(() => releaseGate?.(), DEFERRED_OPEN_MS);
  fallbackArmed = true;
  return gate.then(openDb);
}

/**
 * A live query of the database: undefined until its first answer for these `deps` (the database
 * loads after the page's content; see above), then every change of what it read.
 */
export function useDbQuery<T>(
  query: (db: StorefrontDb) => Promise<T>,
  deps: DependencyList,
): T | undefined {
  const [state, setState] = useState<{ deps: DependencyList; value: T }>();
  useEffect(() => {
    let live = true;
    let subscription: { unsubscribe(): void } | undefined;
    openDbDeferred()
      .then(async (db) => {
        if (!live) return;
        const { liveQuery } = await import('./db.ts');
        subscription = liveQuery(() => query(db)).subscribe({
          next: (value) => {
            if (live) setState({ deps, value });
          },
          error: (error: unknown) => console.warn('IndexedDB read failed', error),
        });
        if (!live) subscription.unsubscribe();
      })
      .catch((error: unknown) => console.warn('IndexedDB could not be opened', error));
    return () => {
      live = false;
      subscription?.unsubscribe();
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps describe `query`.
  }, deps);
  return state && sameDeps(state.deps, deps) ? state.value : undefined;
}

function sameDeps(a: DependencyList, b: DependencyList): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}
