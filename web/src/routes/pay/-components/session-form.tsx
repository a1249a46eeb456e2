// The hosted checkout form of a checkout session: the customer fields (pre-filled from the
// session) validated by the shared schema, the session's own shipping options, and a summary of
// exactly the session's items and prices (not editable: the server prices the order from them).
import {
  CompleteCheckoutSessionSchema,
  checkoutSessionTotal,
  FAILURE_TOASTS,
  formatUsdc,
  multiplyUsdc,
  PAGE_TEXTS,
  type PublicCheckoutSession,
  parseUsdc,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useId, useRef } from 'react';
import type * as v from 'valibot';
import {
  CUSTOMER_FIELD_NAMES,
  CustomerSections,
  customerDefaults,
} from '../../../components/checkout/customer-fields.tsx';
import { OrderSummary } from '../../../components/checkout/order-summary.tsx';
import { errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { completeCheckoutSession } from '../../../lib/checkout-session-api.ts';
import { submitWith, useAppForm } from '../../../lib/form.tsx';
import { usdc } from '../../../lib/format.ts';
import { toastError } from '../../../lib/toast.ts';

type FormValues = v.InferInput<typeof CompleteCheckoutSessionSchema>;

/** The form's first values: the session's pre-fill (a full `name` split at its first space). */
export function sessionDefaults(session: PublicCheckoutSession): FormValues {
  const customer = session.customer ?? {};
  const [first, ...rest] = (customer.name ?? '').trim().split(/\s+/);
  // Note: the country is a known code (customerDefaults checks it); the schema's variant types it.
  return {
    ...customerDefaults({
      ...customer,
      firstName: customer.firstName ?? (first || undefined),
      lastName: customer.lastName ?? (rest.join(' ') || undefined),
    }),
    shippingOptionId: session.shippingOptions[0]?.id,
  } as FormValues;
}

/** The form; `onCompleted` gets the order's id. */
export function SessionForm(props: {
  session: PublicCheckoutSession;
  onCompleted: (orderId: string) => void;
}) {
  const { session } = props;
  const name = useId();
  // Note: one key per session page: a re-sent submission gets the same answer (and the API
  // returns the same order for a completed session anyway).
  const key = useRef(newIdempotencyKey());
  const form = useAppForm({
    defaultValues: sessionDefaults(session),
    validationLogic: revalidateLogic(),
    validators: { onDynamic: CompleteCheckoutSessionSchema },
    onSubmit: async ({ value }) => {
      try {
        const orderId = await completeCheckoutSession(
          session.id,
          value as v.InferOutput<typeof CompleteCheckoutSessionSchema>,
          key.current,
        );
        props.onCompleted(orderId);
      } catch (error) {
        key.current = newIdempotencyKey();
        toastError(FAILURE_TOASTS.createOrder, errorText(error));
      }
    },
  });
  const chosen = useStore(form.store, (state) => state.values.shippingOptionId);
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const option = session.shippingOptions.find((o) => o.id === chosen);
  const shipping = parseUsdc(option?.priceUsdc ?? '0');
  const tax = parseUsdc(session.taxUsdc);
  const discount = parseUsdc(session.discountUsdc);
  const total = checkoutSessionTotal(parseUsdc(session.subtotalUsdc), discount, shipping, tax);

  return (
    <form className="checkout-layout" noValidate onSubmit={submitWith(form)}>
      <div className="checkout-sections">
        <CustomerSections form={form} fields={CUSTOMER_FIELD_NAMES} />
        {session.shippingOptions.length > 0 && (
          <section className="card" aria-labelledby="shipping-title">
            <h2 id="shipping-title">Shipping Method</h2>
            <fieldset className="shipping-methods">
              <legend className="visually-hidden">Shipping method</legend>
              {session.shippingOptions.map((choice) => (
                <label key={choice.id} className="radio-card">
                  <input
                    type="radio"
                    name={name}
                    value={choice.id}
                    checked={chosen === choice.id}
                    onChange={() => form.setFieldValue('shippingOptionId', choice.id)}
                  />
                  <span className="radio-card-text">
                    <strong>{choice.label}</strong>
                  </span>
                  <span className="radio-card-price">
                    {parseUsdc(choice.priceUsdc) === 0n ? 'Free' : usdc(choice.priceUsdc)}
                  </span>
                </label>
              ))}
            </fieldset>
          </section>
        )}
      </div>
      <OrderSummary
        lines={session.items.map((item, index) => ({
          key: `${index}-${item.title}`,
          title: item.title,
          quantity: item.quantity,
          lineTotalUsdc: formatUsdc(multiplyUsdc(parseUsdc(item.priceUsdc), item.quantity)),
          imageUrl: item.imageUrl ?? null,
        }))}
        subtotalUsdc={session.subtotalUsdc}
        discount={
          session.discountCode
            ? { code: session.discountCode, amountUsdc: session.discountUsdc }
            : undefined
        }
        shippingUsdc={session.shippingOptions.length > 0 ? formatUsdc(shipping) : undefined}
        tax={tax > 0n ? { amountUsdc: session.taxUsdc, label: 'Tax' } : undefined}
        totalUsdc={formatUsdc(total)}
      >
        <button type="submit" className="button button-large button-block" disabled={isSubmitting}>
          {isSubmitting ? PAGE_TEXTS.creatingOrder : 'Continue to Payment'}
        </button>
      </OrderSummary>
    </form>
  );
}
