// Signing in the link builder: a signed-in merchant picks one of their stores, and the built link
// is signed by the API with that store's link secret (the secret never reaches the browser). A
// signed link may carry one of the store's discount codes, checked by the API when it signs.
import { useEffect, useState } from 'react';
import { apiRequest } from '../../../lib/api.ts';
import { TextInput } from './text-input.tsx';

/** A store the merchant may sign for. */
export interface SigningStore {
  id: string;
  name: string;
  paymentAddress: string | null;
}

/** The merchant's stores; null when signed out, undefined while asking. */
export function useSigningStores(): SigningStore[] | null | undefined {
  const [stores, setStores] = useState<SigningStore[] | null>();
  useEffect(() => {
    let live = true;
    (async () => {
      const me = await apiRequest<unknown>('GET', '/api/auth/me', undefined, {
        on401: 'returnNull',
      });
      if (!me) return null;
      return apiRequest<SigningStore[]>('GET', '/api/stores?mine=true');
    })()
      .then((list) => live && setStores(list))
      // Note: offline or failing, the builder still builds unsigned links.
      .catch(() => live && setStores(null));
    return () => {
      live = false;
    };
  }, []);
  return stores;
}

/** POST /api/stores/{id}/signed-links: the signed link's path (`/universal-checkout?…`). */
export async function signLinkFor(storeId: string, link: string): Promise<string> {
  const answer = await apiRequest<{ path: string }>(
    'POST',
    `/api/stores/${encodeURIComponent(storeId)}/signed-links`,
    { link },
  );
  return answer.path;
}

/** `link` with the discount code to sign (trimmed; none when empty). */
export function withDiscountCode(link: string, code: string): string {
  const trimmed = code.trim();
  if (!trimmed) return link;
  const url = new URL(link);
  url.searchParams.set('discountCode', trimmed);
  return url.toString();
}

/**
 * The store picker: "Don't sign" or one of the merchant's stores with a payout address; once a
 * store is picked, the discount code the link carries.
 */
export function SigningSection(props: {
  stores: readonly SigningStore[];
  storeId: string;
  onPick: (store: SigningStore | undefined) => void;
  discountCode: string;
  onDiscountCode: (code: string) => void;
}) {
  return (
    <section className="card" aria-labelledby="signing-title">
      <h2 id="signing-title">Sign the link</h2>
      <p className="muted">
        A signed link can't be edited: a shopper who changes its price, items or payee is refused,
        and its webhook says <code>signed: true</code>. It pays the store's payout address.
      </p>
      <div className="field">
        <label htmlFor="builder-signing-store">Sign for store</label>
        <select
          id="builder-signing-store"
          value={props.storeId}
          onChange={(event) =>
            props.onPick(props.stores.find((store) => store.id === event.target.value))
          }
        >
          <option value="">Don't sign (anyone can edit the link)</option>
          {props.stores.map((store) => (
            <option key={store.id} value={store.id} disabled={!store.paymentAddress}>
              {store.paymentAddress ? store.name : `${store.name} (no payout address)`}
            </option>
          ))}
        </select>
      </div>
      {props.storeId && (
        <TextInput
          label="Discount code (optional)"
          placeholder="SAVE10"
          hint="One of this store's codes: checked when the link is signed, taken off the shopper's total."
          value={props.discountCode}
          onChange={props.onDiscountCode}
        />
      )}
    </section>
  );
}
