// The universal checkout form: the customer fields (pre-filled from the link) validated by the
// shared UniversalCheckoutFormSchema, the optional shipping radio group, the summary from the
// link, and 'Continue to Payment' / 'Creating Order...'.
import {
  type CheckoutParams,
  type CreateUniversalOrder,
  FAILURE_TOASTS,
  formatUsdc,
  multiplyUsdc,
  PAGE_TEXTS,
  PAYMENT_MESSAGES,
  parseUsdc,
  SHIPPING_METHODS,
  SHIPPING_OPTIONS,
  type ShippingMethod,
  SUCCESS_TOASTS,
  UniversalCheckoutFormSchema,
  universalCheckoutTotals,
} from '@store/shared';
import {
  buildUniversalOrderBody,
  initialUniversalShipping,
  shippingOptionsOf,
} from '@store/shared/universal-order';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useRef } from 'react';
import * as v from 'valibot';
import {
  CUSTOMER_FIELD_NAMES,
  CustomerSections,
  customerDefaults,
} from '../../../components/checkout/customer-fields.tsx';
import { OrderSummary } from '../../../components/checkout/order-summary.tsx';
import {
  type ShippingChoice,
  ShippingMethods,
} from '../../../components/checkout/shipping-methods.tsx';
import { errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { submitWith, useAppForm } from '../../../lib/form.tsx';
import { createUniversalOrder } from '../../../lib/shop-api.ts';
import { toast, toastError } from '../../../lib/toast.ts';

/** The methods the link offers: free only when enabled, standard and express at the link's price. */
export function universalChoices(params: CheckoutParams): ShippingChoice[] {
  if (!params.shipping) return [];
  return SHIPPING_METHODS.filter((method) => method !== 'free' || params.freeShipping).map(
    (method) => ({
      method,
      label: SHIPPING_OPTIONS[method].label,
      delivery: SHIPPING_OPTIONS[method].delivery,
      priceUsdc:
        method === 'standard'
          ? (params.standardShipping ?? SHIPPING_OPTIONS.standard.priceUsdc)
          : method === 'express'
            ? (params.expressShipping ?? SHIPPING_OPTIONS.express.priceUsdc)
            : '0.00',
    }),
  );
}

type FormValues = v.InferInput<typeof UniversalCheckoutFormSchema>;

/** The form; `onCreated` gets the new order's id; `signedLink` is sent for the API to verify. */
export function UniversalForm(props: {
  params: CheckoutParams;
  signedLink?: string;
  onCreated: (orderId: string) => void;
}) {
  const { params } = props;
  const attempt = useRef<{ same: string; order: CreateUniversalOrder; key: string }>(undefined);
  const form = useAppForm({
    defaultValues: {
      ...customerDefaults(params),
      shippingMethod: initialUniversalShipping(params),
    } as FormValues,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: UniversalCheckoutFormSchema },
    onSubmit: async ({ value }) => {
      try {
        const valid = v.parse(UniversalCheckoutFormSchema, value);
        const built = {
          ...buildUniversalOrderBody(params, valid, Date.now(), Math.random),
          ...(props.signedLink ? { signedLink: props.signedLink } : {}),
        };
        // Note: a re-sent identical order reuses its key and its exact body (the generated
        // product ids included), so the API replays the first answer instead of a second order.
        const same = JSON.stringify({
          ...built,
          items: built.items.map(({ productId: _, ...line }) => line),
        });
        if (attempt.current?.same !== same)
          attempt.current = { same, order: built, key: newIdempotencyKey() };
        const id = await createUniversalOrder(attempt.current.order, attempt.current.key);
        if (!id) throw new Error(PAYMENT_MESSAGES.missingOrderId);
        toast(SUCCESS_TOASTS.orderCreated);
        props.onCreated(id);
      } catch (error) {
        toastError(FAILURE_TOASTS.createOrder, errorText(error));
      }
    },
  });
  const method = useStore(form.store, (state) => state.values.shippingMethod);
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const choices = universalChoices(params);
  let totals: ReturnType<typeof universalCheckoutTotals> | undefined;
  try {
    totals = universalCheckoutTotals(
      params.items,
      params.shipping ? method : undefined,
      shippingOptionsOf(params),
    );
  } catch {
    totals = undefined;
  }

  return (
    <form className="checkout-layout" noValidate onSubmit={submitWith(form)}>
      <div className="checkout-sections">
        <CustomerSections form={form} fields={CUSTOMER_FIELD_NAMES} />
        {choices.length > 0 && (
          <section className="card" aria-labelledby="shipping-title">
            <h2 id="shipping-title">Shipping Method</h2>
            <ShippingMethods
              choices={choices}
              value={method}
              onChange={(next: ShippingMethod) => form.setFieldValue('shippingMethod', next)}
            />
          </section>
        )}
      </div>
      <OrderSummary
        lines={params.items.map((item, index) => ({
          key: `${index}-${item.title}`,
          title: item.title,
          quantity: item.quantity,
          lineTotalUsdc: formatUsdc(multiplyUsdc(parseUsdc(item.priceUsdc), item.quantity)),
        }))}
        subtotalUsdc={totals?.subtotalUsdc ?? '—'}
        shippingUsdc={params.shipping ? (totals?.shippingUsdc ?? '—') : undefined}
        totalUsdc={totals?.totalUsdc ?? '—'}
      >
        <button type="submit" className="button button-large button-block" disabled={isSubmitting}>
          {isSubmitting ? PAGE_TEXTS.creatingOrder : 'Continue to Payment'}
        </button>
      </OrderSummary>
    </form>
  );
}
