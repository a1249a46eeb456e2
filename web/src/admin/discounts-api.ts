// The merchant's discount code calls (GET, POST, PUT /api/stores/{id}/discounts), answers checked
// against the shared schema, and the admin form's values: text as typed, turned into the body.
import {
  DISCOUNT_LIMITS,
  DISCOUNT_MESSAGES,
  type Discount,
  DiscountCodeSchema,
  type DiscountInput,
  type DiscountKind,
  DiscountSchema,
  isPriceString,
} from '@store/shared';
import * as v from 'valibot';
import { apiRequest } from '../lib/api.ts';

const path = (storeId: string) => `/api/stores/${encodeURIComponent(storeId)}/discounts`;

/** The store's codes with their figures, newest first. */
export async function fetchDiscounts(storeId: string): Promise<Discount[]> {
  return v.parse(v.array(DiscountSchema), await apiRequest('GET', path(storeId)));
}

/** Creates a code (no `id`) or replaces one. */
export async function saveDiscount(
  storeId: string,
  body: DiscountInput,
  id?: string,
): Promise<Discount> {
  const answer = id
    ? await apiRequest('PUT', `${path(storeId)}/${encodeURIComponent(id)}`, body)
    : await apiRequest('POST', path(storeId), body);
  return v.parse(DiscountSchema, answer);
}

/** The discount form's fields, as typed. */
export interface DiscountFormValues {
  code: string;
  kind: DiscountKind;
  /** Percent ("10", "12.5") or USDC ("5.00"), after `kind`. */
  amount: string;
  minimum: string;
  /** A local date and time (datetime-local), '' for none. */
  expiresAt: string;
  maxUses: string;
  maxUsesPerCustomer: string;
  productIds: string[];
  isActive: boolean;
}

const limit = v.pipe(
  v.string(),
  v.trim(),
  v.check(
    (s) =>
      s === '' || (/^\d{1,7}$/.test(s) && Number(s) >= 1 && Number(s) <= DISCOUNT_LIMITS.maxUses),
    DISCOUNT_MESSAGES.maxUses,
  ),
);

/** The form's validator: the same rules and messages as the API's. */
export const DiscountFormSchema = v.pipe(
  v.object({
    code: DiscountCodeSchema,
    kind: v.picklist(['percent', 'fixed'], DISCOUNT_MESSAGES.kind),
    amount: v.pipe(v.string(), v.trim(), v.nonEmpty('Enter how much the code takes off')),
    minimum: v.pipe(
      v.string(),
      v.trim(),
      v.check((s) => s === '' || isPriceString(s), 'Enter an amount with at most 2 decimals'),
    ),
    expiresAt: v.string(),
    maxUses: limit,
    maxUsesPerCustomer: limit,
    productIds: v.array(v.string()),
    isActive: v.boolean(),
  }),
  v.forward(
    v.check(
      (f) =>
        f.kind === 'percent'
          ? /^\d{1,3}(\.\d{1,2})?$/.test(f.amount) &&
            Number(f.amount) > 0 &&
            Number(f.amount) <= 100
          : isPriceString(f.amount) && Number(f.amount) > 0,
      // Note: one message per kind would need two checks; the field shows the kind's own below.
      'Enter a percentage from 0.01 to 100, or an amount above 0.00',
    ),
    ['amount'],
  ),
);

/** Fresh values, or the code's own to edit it. */
export function discountFormDefaults(discount?: Discount): DiscountFormValues {
  const local = (iso: string) => {
    const d = new Date(iso);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  };
  return {
    code: discount?.code ?? '',
    kind: discount?.kind ?? 'percent',
    amount: discount
      ? discount.kind === 'percent'
        ? String((discount.percentBps ?? 0) / 100)
        : (discount.amountUsdc ?? '')
      : '',
    minimum:
      discount && discount.minimumSubtotalUsdc !== '0.00' ? discount.minimumSubtotalUsdc : '',
    expiresAt: discount?.expiresAt ? local(discount.expiresAt) : '',
    maxUses: discount?.maxUses ? String(discount.maxUses) : '',
    maxUsesPerCustomer: discount?.maxUsesPerCustomer ? String(discount.maxUsesPerCustomer) : '',
    productIds: discount?.productIds ?? [],
    isActive: discount?.isActive ?? true,
  };
}

/** The API body of the form's values (the expiry in the merchant's own time zone). */
export function discountBody(values: DiscountFormValues): DiscountInput {
  const amount = values.amount.trim();
  const whole = (s: string) => (s.trim() === '' ? null : Number(s.trim()));
  return {
    code: values.code.trim().toUpperCase(),
    kind: values.kind,
    percentBps: values.kind === 'percent' ? Math.round(Number(amount) * 100) : null,
    amountUsdc: values.kind === 'fixed' ? amount : null,
    minimumSubtotalUsdc: values.minimum.trim() || '0.00',
    productIds: values.productIds.length > 0 ? values.productIds : null,
    expiresAt: values.expiresAt ? new Date(values.expiresAt).toISOString() : null,
    maxUses: whole(values.maxUses),
    maxUsesPerCustomer: whole(values.maxUsesPerCustomer),
    isActive: values.isActive,
  };
}
