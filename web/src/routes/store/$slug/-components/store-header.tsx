// The themed store header (docs/screens.md#storefront): logo, name, description and the badges.
// "Verified Store" only while the store's payout wallet has signed its verification message and is
// still the payout address.
import type { PublicStore } from '@store/shared';
import { StoreLogo } from '../../../../components/store-logo.tsx';

/** Header of the storefront and product pages. */
export function StoreHeader(props: {
  store: PublicStore;
  productCount?: number;
  compact?: boolean;
}) {
  const { store } = props;
  const count = props.productCount ?? store.productCount ?? 0;
  return (
    <header className={`store-header${props.compact ? ' store-header-compact' : ''}`}>
      <StoreLogo name={store.name} logoUrl={store.logoUrl} size={props.compact ? 'sm' : 'lg'} />
      <div className="store-header-text">
        {props.compact ? <p className="store-name">{store.name}</p> : <h1>{store.name}</h1>}
        {!props.compact && store.description && <p className="muted">{store.description}</p>}
        <ul className="badges" aria-label="Store badges">
          {store.verified && (
            <li
              className="badge badge-success"
              title="The store's payout wallet signed a message proving the store controls it"
            >
              Verified Store
            </li>
          )}
          <li className="badge">
            {count} {count === 1 ? 'Product' : 'Products'}
          </li>
          <li className="badge badge-accent">Web3 Enabled</li>
        </ul>
      </div>
    </header>
  );
}
