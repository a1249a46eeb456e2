// The universal checkout form: the customer fields (pre-filled from the link) validated by the
// shared UniversalCheckoutFormSchema, the optional shipping radio group, the summary from the
// link, and 'Continue to Payment' / 'Creating Order...'. A signed link's discount code is asked
// of its store's API (what it takes off, or why it cannot) and shown; the server prices it again.
import {
  type CheckoutParams,
  type CreateUniversalOrder,
  type DiscountRule,
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
} from '@store/shared';
import {
  buildUniversalOrderBody,
  initialUniversalShipping,
  universalTotalsWithDiscount,
} from '@store/shared/universal-order';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useEffect, useRef, useState } from 'react';
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
import { checkDiscountCode, createUniversalOrder } from '../../../lib/shop-api.ts';
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
  const discount = useLinkDiscount(params, props.signedLink);
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
          ...buildUniversalOrderBody(params, valid, Date.now(), Math.random, discount.rule),
          // Note: a code the API refused is still sent, so the order is refused with its reason.
          ...(discount.code && !discount.rule ? { discountCode: discount.code } : {}),
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
  let totals: ReturnType<typeof universalTotalsWithDiscount> | undefined;
  try {
    totals = universalTotalsWithDiscount(
      params,
      params.shipping ? method : undefined,
      discount.rule,
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
        discount={
          discount.rule && totals
            ? { code: discount.rule.code, amountUsdc: totals.discountUsdc }
            : undefined
        }
        shippingUsdc={params.shipping ? (totals?.shippingUsdc ?? '—') : undefined}
        totalUsdc={totals?.totalUsdc ?? '—'}
      >
        {discount.error && (
          <p className="field-error" role="alert" data-testid="link-discount-error">
            {discount.code}: {discount.error}
          </p>
        )}
        <button type="submit" className="button button-large button-block" disabled={isSubmitting}>
          {isSubmitting ? PAGE_TEXTS.creatingOrder : 'Continue to Payment'}
        </button>
      </OrderSummary>
    </form>
  );
}

/**
 * The discount code of a signed link: the rule its store's API answers (to show what it takes off),
 * or the reason it cannot apply. A hand-made link's code is not honoured (codes are a store's).
 */
function useLinkDiscount(params: CheckoutParams, signedLink: string | undefined) {
  const storeId = signedLink ? new URLSearchParams(signedLink).get('storeId') : null;
  const code = storeId ? params.discountCode : undefined;
  const [state, setState] = useState<{ rule?: DiscountRule; error?: string }>({});
  useEffect(() => {
    if (!code || !storeId) return;
    let live = true;
    checkDiscountCode(storeId, code).then(
      (rule) => live && setState({ rule }),
      (error) => live && setState({ error: errorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [code, storeId]);
  return { code, ...state };
}
