// The storefront's way to IndexedDB without Dexie on its first paint: the database module (Dexie,
// ~32 kB gzip) is imported on demand. Reads that are not the page's content (the cart summary on a
// store page, the cached catalogue behind the network's copy) wait until the page says its content
// is on screen and the browser is idle; the pages whose content is the database (the cart, the
// checkout) and every write open it at once, and a failed network read (offline) opens it too.
// Note: the merchant's pages import db.ts directly; both paths share the one instance.
import { type DependencyList, useEffect, useState } from 'react';
import type { StorefrontDb } from './db.ts';

type DbModule = typeof import('./db.ts');

let loading: Promise<DbModule> | undefined;

/** The database, loading its module now if it is not loaded yet. */
export async function openDb(): Promise<StorefrontDb> {
  loading ??= import('./db.ts');
  releaseGate?.();
  return (await loading).db;
}

/** Longest wait for the page's content before the deferred reads open the database anyway. */
const DEFERRED_OPEN_MS = 4000;

let releaseGate: (() => void) | undefined;
const gate = new Promise<void>((resolve) => {
  releaseGate = resolve;
});

/**
 * Says the page's content is on screen: deferred reads may load the database once the browser is
 * idle. Pages call it when what they are for has rendered (a store's products, a product).
 */
export function contentShown(): void {
  const idle = globalThis.requestIdleCallback;
  if (idle) idle(() => releaseGate?.(), { timeout: 1000 });
  else setTimeout(() => releaseGate?.(), 0);
}

/** React hook form of `contentShown`: once `shown` becomes true. */
export function useContentShown(shown: boolean): void {
  useEffect(() => {
    if (shown) contentShown();
  }, [shown]);
}

let fallbackArmed = false;

/** The database once the page's content has been shown (at most DEFERRED_OPEN_MS from the first ask). */
function openDbDeferred(): Promise<StorefrontDb> {
  if (!fallbackArmed) setTimeout(() => releaseGate?.(), DEFERRED_OPEN_MS);
  fallbackArmed = true;
  return gate.then(openDb);
}

/** Runs `write` once the database may load (after the page's content): caching, not content. */
export function afterContent(write: () => Promise<void>): Promise<void> {
  return openDbDeferred().then(write);
}

/**
 * A live query of the database: undefined until its first answer for these `deps`, then every
 * change of what it read. `deferred`: not the page's content, so it waits for it (see above).
 */
export function useDbQuery<T>(
  query: (db: StorefrontDb) => Promise<T>,
  deps: DependencyList,
  options: { deferred?: boolean } = {},
): T | undefined {
  const deferred = options.deferred ?? false;
  const [state, setState] = useState<{ deps: DependencyList; value: T }>();
  useEffect(() => {
    let live = true;
    let subscription: { unsubscribe(): void } | undefined;
    (deferred ? openDbDeferred() : openDb())
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
