// The store checkout form: TanStack Form validated by the shared StoreCheckoutFormSchema (the
// same rules and messages the API enforces), the shipping method and the live order summary.
import {
  formatUsdc,
  multiplyUsdc,
  PAGE_TEXTS,
  type PublicStore,
  parseUsdc,
  SHIPPING_METHODS,
  SHIPPING_OPTIONS,
  type ShippingMethod,
  StoreCheckoutFormSchema,
  shippingFor,
  storeCheckoutTotals,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useEffect } from 'react';
import * as v from 'valibot';
import {
  CUSTOMER_FIELD_NAMES,
  CustomerSections,
  customerDefaults,
} from '../../../../components/checkout/customer-fields.tsx';
import { OrderSummary } from '../../../../components/checkout/order-summary.tsx';
import {
  type ShippingChoice,
  ShippingMethods,
} from '../../../../components/checkout/shipping-methods.tsx';
import type { CartRow } from '../../../../db/db.ts';
import { readSavedShippingAddress } from '../../../../db/settings.ts';
import { submitWith, useAppForm } from '../../../../lib/form.tsx';
import { usePlaceOrder } from './use-place-order.ts';

const CHOICES: ShippingChoice[] = SHIPPING_METHODS.map((method) => ({
  method,
  ...SHIPPING_OPTIONS[method],
}));

function lineTotal(line: CartRow): string {
  try {
    return formatUsdc(multiplyUsdc(parseUsdc(line.priceUsdc), line.quantity));
  } catch {
    return line.priceUsdc;
  }
}

function totalsOf(lines: readonly CartRow[], method: ShippingMethod) {
  try {
    return storeCheckoutTotals(lines, shippingFor(method));
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
  const form = useAppForm({
    defaultValues: { ...customerDefaults(), shippingMethod: 'free' } as FormValues,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: StoreCheckoutFormSchema },
    onSubmit: async ({ value }) => {
      await placeOrder(
        props.lines,
        props.store.id,
        v.parse(StoreCheckoutFormSchema, value),
        props.onPlaced,
      );
    },
  });
  const method: ShippingMethod =
    useStore(form.store, (state) => state.values.shippingMethod) ?? 'free';
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);

  useEffect(() => {
    // Pre-fill from the last checkout on this device, leaving anything typed already alone.
    void readSavedShippingAddress().then((saved) => {
      const known = customerDefaults(saved);
      // Note: the country always has a value (the default); the saved one wins until it is chosen.
      for (const [name, value] of Object.entries(known) as [keyof typeof known, string][]) {
        const open =
          name === 'country' ? !form.getFieldMeta(name)?.isTouched : !form.getFieldValue(name);
        if (value && open) form.setFieldValue(name, value, { dontUpdateMeta: true });
      }
    });
  }, [form]);

  const totals = totalsOf(props.lines, method);
  return (
    <form className="checkout-layout" noValidate onSubmit={submitWith(form)}>
      <div className="checkout-sections">
        <CustomerSections form={form} fields={CUSTOMER_FIELD_NAMES} />
        <section className="card" aria-labelledby="shipping-title">
          <h2 id="shipping-title">Shipping Method</h2>
          <ShippingMethods
            choices={CHOICES}
            value={method}
            onChange={(next) => form.setFieldValue('shippingMethod', next)}
          />
        </section>
      </div>
      <OrderSummary
        lines={props.lines.map((line) => ({
          key: line.key,
          title: line.title,
          quantity: line.quantity,
          lineTotalUsdc: lineTotal(line),
        }))}
        subtotalUsdc={totals?.subtotalUsdc ?? '—'}
        shippingUsdc={totals?.shippingUsdc ?? SHIPPING_OPTIONS[method].priceUsdc}
        taxUsdc={totals?.taxUsdc ?? '—'}
        totalUsdc={totals?.totalUsdc ?? '—'}
      >
        <button type="submit" className="button button-large button-block" disabled={isSubmitting}>
          {isSubmitting ? PAGE_TEXTS.creatingOrder : 'Proceed to Payment'}
        </button>
        <p className="muted small">
          Paid in USDC on Base. You will get a payment address on the next page.
        </p>
      </OrderSummary>
    </form>
  );
}
