// The product page's Description / Reviews / Shipping tabs (docs/screens.md#product-page). Shipping
// and returns are the store's own settings (the defaults until it sets them); reviews come from
// verified buyers.
import {
  countryName,
  enabledShippingOptions,
  FALLBACK_ZONE_NAME,
  type ResolvedStoreSettings,
  returnPolicyText,
  settingsForCountry,
} from '@store/shared';
import type { ReactNode } from 'react';
import { StarIcon } from '../../../../components/icons.tsx';
import { Tabs } from '../../../../components/tabs.tsx';
import { usdc } from '../../../../lib/format.ts';

/** Five stars, `rating` of them filled (rounded). */
export function Stars(props: { rating: number }) {
  const shown = Math.round(props.rating * 10) / 10;
  return (
    <span className="stars" role="img" aria-label={`${shown} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((star) => (
        <StarIcon
          key={star}
          size="1em"
          aria-hidden="true"
          fill={star <= Math.round(props.rating) ? 'currentColor' : 'none'}
        />
      ))}
    </span>
  );
}

/** One zone's methods, as a list. */
function MethodList(props: { settings: ResolvedStoreSettings }) {
  return (
    <ul>
      {enabledShippingOptions(props.settings).map((option) => (
        <li key={option.method}>
          <strong>{option.label}</strong> ({option.delivery}):{' '}
          {option.baseUnits === 0n ? 'free' : usdc(option.priceUsdc)}
        </li>
      ))}
    </ul>
  );
}

/** The store's shipping methods (per zone when it has zones) and return policy. */
export function ShippingAndReturns(props: { settings: ResolvedStoreSettings }) {
  const { settings } = props;
  return (
    <div data-testid="shipping-tab">
      {settings.zones.length === 0 ? (
        <MethodList settings={settings} />
      ) : (
        <>
          {settings.zones.map((zone) => (
            <div key={zone.name}>
              <h3 className="small">
                {zone.name} (
                {zone.countries.length > 6
                  ? `${zone.countries.length} countries`
                  : zone.countries.map((code) => countryName(code)).join(', ')}
                )
              </h3>
              <MethodList settings={settingsForCountry(settings, zone.countries[0])} />
            </div>
          ))}
          <h3 className="small">{FALLBACK_ZONE_NAME}</h3>
          <MethodList settings={settings} />
        </>
      )}
      <p className="muted">
        {settings.returnPolicyDays > 0
          ? `Returns accepted within ${returnPolicyText(settings.returnPolicyDays)} of delivery.`
          : 'This store does not accept returns.'}
      </p>
    </div>
  );
}

/** The three tabs of a product; `reviews` is the Reviews tab's content. */
export function ProductTabs(props: {
  description?: string | null;
  settings: ResolvedStoreSettings;
  reviews: ReactNode;
}) {
  return (
    <Tabs
      label="Product details"
      tabs={[
        {
          id: 'description',
          label: 'Description',
          content: <p>{props.description || 'No description provided.'}</p>,
        },
        { id: 'reviews', label: 'Reviews', content: props.reviews },
        {
          id: 'shipping',
          label: 'Shipping',
          content: <ShippingAndReturns settings={props.settings} />,
        },
      ]}
    />
  );
}
