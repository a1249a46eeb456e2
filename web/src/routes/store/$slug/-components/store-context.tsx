// The store of the /store/{slug} pages, resolved once by the layout and read by every child page.
import { createContext, useContext } from 'react';
import type { Cached } from '../../../../db/catalogue.ts';
import type { CachedStore } from '../../../../db/db.ts';

/** The current store as the layout resolved it (cached first, then the network). */
export const StoreContext = createContext<Cached<CachedStore> | null>(null);

/** The store of the enclosing /store/{slug} layout. */
export function useCurrentStore(): Cached<CachedStore> {
  const value = useContext(StoreContext);
  if (!value) throw new Error('useCurrentStore is used outside the /store/{slug} layout');
  return value;
}
