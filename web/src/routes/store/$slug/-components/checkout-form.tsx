// The store checkout form: TanStack Form validated by the shared StoreCheckoutFormSchema (the
// same rules and messages the API enforces), the shipping methods of the chosen country's zone and
// the live order summary with that zone's tax rate (the same shared totals the API recomputes).
import {
  countryName,
  type DiscountRule,
  defaultShippingMethodOf,
  enabledShippingOptions,
  formatTaxRate,
  formatUsdc,
  multiplyUsdc,
  PAGE_TEXTS,
  type PublicStore,
  parseUsdc,
  type ResolvedStoreSettings,
  resolveStoreSettings,
  type ShippingMethod,
  StoreCheckoutFormSchema,
  settingsForCountry,
} from '@store/shared';
import { storeOrderTotals } from '@store/shared/store-checkout';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import * as v from 'valibot';
import {
  CUSTOMER_FIELD_NAMES,
  CustomerSections,
  customerDefaults,
} from '../../../../components/checkout/customer-fields.tsx';
import { DiscountCode } from '../../../../components/checkout/discount-code.tsx';
import { OrderSummary } from '../../../../components/checkout/order-summary.tsx';
import {
  type ShippingChoice,
  ShippingMethods,
} from '../../../../components/checkout/shipping-methods.tsx';
import type { CartRow } from '../../../../db/db.ts';
import {
  forgetShippingAddress,
  readSavedShippingAddress,
  type SavedShippingAddress,
  savedDetailsLabel,
} from '../../../../db/settings.ts';
import { useChainInfo } from '../../../../lib/chain-info.ts';
import { submitWith, useAppForm } from '../../../../lib/form.tsx';
import { usePlaceOrder } from './use-place-order.ts';

/** The methods the store offers, as the radio group shows them. */
function choicesOf(settings: ResolvedStoreSettings): ShippingChoice[] {
  return enabledShippingOptions(settings).map(({ method, label, delivery, priceUsdc }) => ({
    method,
    label,
    delivery,
    priceUsdc,
  }));
}

function lineTotal(line: CartRow): string {
  try {
    return formatUsdc(multiplyUsdc(parseUsdc(line.priceUsdc), line.quantity));
  } catch {
    return line.priceUsdc;
  }
}

function totalsOf(
  lines: readonly CartRow[],
  method: ShippingMethod,
  settings: ResolvedStoreSettings,
  discount: DiscountRule | undefined,
) {
  try {
    return storeOrderTotals(lines, method, settings, discount);
  } catch {
    return undefined;
  }
}

type FormValues = v.InferInput<typeof StoreCheckoutFormSchema>;

/** The form and its summary; `onPlaced` gets the new order's id. */
export function CheckoutForm(props: {
  store: PublicStore;
  lines: readonly CartRow[];
  slug: string;
  onPlaced: (orderId: string) => void;
}) {
  const placeOrder = usePlaceOrder();
  const chain = useChainInfo();
  const settings = useMemo(() => resolveStoreSettings(props.store), [props.store]);
  // Note: read when submitting (the form's submit handler is made once).
  const remember = useRef(false);
  // The applied discount code (read when submitting, as `remember` is).
  const [discount, setDiscount] = useState<DiscountRule>();
  const discountRef = useRef<DiscountRule | undefined>(undefined);
  discountRef.current = discount;
  const rememberId = useId();
  // What this device keeps (a shopper asked it to), whether it was put in the form, and whether
  // it was just forgotten (said once, as a status).
  const [saved, setSaved] = useState<SavedShippingAddress>();
  const [used, setUsed] = useState(false);
  const [forgotten, setForgotten] = useState(false);
  const firstMethod = defaultShippingMethodOf(settings);
  const form = useAppForm({
    defaultValues: { ...customerDefaults(), shippingMethod: firstMethod } as FormValues,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: StoreCheckoutFormSchema },
    onSubmit: async ({ value }) => {
      await placeOrder(
        props.lines,
        props.store.id,
        v.parse(StoreCheckoutFormSchema, value),
        props.onPlaced,
        settings,
        remember.current,
        discountRef.current,
      );
    },
  });
  const chosen: ShippingMethod =
    useStore(form.store, (state) => state.values.shippingMethod) ?? firstMethod;
  const country = useStore(form.store, (state) => state.values.country);
  // The zone of the chosen country: its methods, prices and tax rate.
  const zone = useMemo(() => settingsForCountry(settings, country), [settings, country]);
  const method: ShippingMethod = zone.shipping[chosen].enabled
    ? chosen
    : defaultShippingMethodOf(zone);
  // Note: a method the new country's zone does not offer gives way to its first one.
  useEffect(() => {
    if (method !== chosen) form.setFieldValue('shippingMethod', method, { dontUpdateMeta: true });
  }, [method, chosen, form]);
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);

  // Details a shopper asked this device to keep are offered, never filled in unasked (a shared
  // device must not hand one shopper's address and phone to the next).
  useEffect(() => {
    void readSavedShippingAddress().then((found) => {
      if (savedDetailsLabel(found)) setSaved(found);
    });
  }, []);
  const fillSaved = (details: SavedShippingAddress) => {
    const known = customerDefaults(details);
    // Note: the country always has a value (the default); the saved one wins until it is chosen.
    for (const [name, value] of Object.entries(known) as [keyof typeof known, string][]) {
      const open =
        name === 'country' ? !form.getFieldMeta(name)?.isTouched : !form.getFieldValue(name);
      if (value && open) form.setFieldValue(name, value, { dontUpdateMeta: true });
    }
    setUsed(true);
  };
  // Note: the form keeps what was typed or put in; only the device forgets.
  const forget = async () => {
    await forgetShippingAddress();
    setSaved(undefined);
    setForgotten(true);
  };

  const totals = totalsOf(props.lines, method, zone, discount);
  const rate = formatTaxRate(zone.taxRateBps);
  return (
    <form className="checkout-layout" noValidate onSubmit={submitWith(form)}>
      <div className="checkout-sections">
        {saved && (
          <section className="card saved-details" aria-labelledby="saved-details-title">
            <h2 id="saved-details-title">Saved on this device</h2>
            <p className="muted">
              {used
                ? `The details of ${savedDetailsLabel(saved)} are filled in and still kept on this device.`
                : `Details of ${savedDetailsLabel(saved)} are kept on this device.`}
            </p>
            <div className="actions">
              {!used && (
                <button type="button" className="button" onClick={() => fillSaved(saved)}>
                  Use these details
                </button>
              )}
              <button type="button" className="link-button" onClick={() => void forget()}>
                Forget my details
              </button>
            </div>
          </section>
        )}
        {forgotten && (
          <p className="muted small" role="status">
            Forgotten: no shopper's details are kept on this device.
          </p>
        )}
        <CustomerSections form={form} fields={CUSTOMER_FIELD_NAMES} />
        <div className="remember-me">
          <div className="checkbox-line">
            <input
              id={rememberId}
              type="checkbox"
              aria-describedby={`${rememberId}-hint`}
              onChange={(event) => {
                remember.current = event.currentTarget.checked;
              }}
            />
            <label htmlFor={rememberId}>Remember me on this device</label>
          </div>
          <p id={`${rememberId}-hint`} className="muted small">
            Keeps your name, email, address and phone here for your next order. Leave it off on a
            shared device.
          </p>
        </div>
        <section className="card" aria-labelledby="shipping-title">
          <h2 id="shipping-title">Shipping Method</h2>
          {zone.zones.length > 0 && (
            <p className="muted small" data-testid="shipping-zone">
              Shipping to {countryName(country ?? '')}
              {zone.zone !== countryName(country ?? '') ? `: ${zone.zone} rates` : ''}
            </p>
          )}
          <ShippingMethods
            choices={choicesOf(zone)}
            value={method}
            onChange={(next) => form.setFieldValue('shippingMethod', next)}
          />
        </section>
        <DiscountCode
          storeId={props.store.id}
          lines={props.lines}
          customerEmail={() => form.getFieldValue('customerEmail') || undefined}
          applied={discount}
          onChange={setDiscount}
        />
        {/* Note: outside the summary, whose pay button also sits in the phone's bottom bar. */}
        <p className="muted small">
          Paid in USDC on {chain.networkName}. You will get a payment address on the next page.
        </p>
      </div>
      <OrderSummary
        lines={props.lines.map((line) => ({
          key: line.key,
          title: line.title,
          quantity: line.quantity,
          lineTotalUsdc: lineTotal(line),
        }))}
        subtotalUsdc={totals?.subtotalUsdc ?? '—'}
        discount={
          discount && totals ? { code: discount.code, amountUsdc: totals.discountUsdc } : undefined
        }
        shippingUsdc={totals?.shippingUsdc ?? zone.shipping[method].priceUsdc}
        // Note: no tax row where the zone charges none.
        tax={
          zone.taxRateBps > 0
            ? {
                amountUsdc: totals?.taxUsdc ?? '—',
                label: zone.pricesIncludeTax ? `Tax included (${rate})` : `Estimated tax (${rate})`,
              }
            : undefined
        }
        totalUsdc={totals?.totalUsdc ?? '—'}
      >
        <button type="submit" className="button button-large button-block" disabled={isSubmitting}>
          {isSubmitting ? PAGE_TEXTS.creatingOrder : 'Proceed to Payment'}
        </button>
      </OrderSummary>
    </form>
  );
}
