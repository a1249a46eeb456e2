// Bodies and messages of POST /api/universal-orders (both forms, docs/api.md#shopper-routes).
import {
  type CreateUniversalOrder,
  CreateUniversalOrderSchema,
  type CreateUniversalWallet,
  CreateUniversalWalletSchema,
  firstIssueMessage,
  ZERO_TOTAL_MESSAGE,
} from '@store/shared';
import * as v from 'valibot';
import { AppError } from '../../http/errors.ts';

/** Texts of the universal order errors (docs/messages.md#api-messages). */
export const UNIVERSAL_MESSAGES = {
  totalsMismatch: (subtotal: string, shipping: string, total: string) =>
    `Order totals do not match the items: expected subtotal ${subtotal}, shipping ${shipping}, total ${total}`,
  freeShippingNotOffered: 'Free shipping is not offered by this checkout link',
  zeroTotal: ZERO_TOTAL_MESSAGE,
  returnUrl: 'Return URL must be an http(s) URL',
  logoUrl: 'Logo must be an http(s) URL or an emoji',
} as const;

/** A parsed body: the checkout form's (answers the order) or the payment page's (the wallet). */
export type UniversalBody =
  | { form: 'order'; input: CreateUniversalOrder }
  | { form: 'wallet'; input: CreateUniversalWallet };

/** Picks the form by its `paymentChain` field, then validates with that form's shared schema. */
export function parseUniversalBody(body: unknown): UniversalBody {
  const wallet = typeof body === 'object' && body !== null && 'paymentChain' in body;
  const result = wallet
    ? v.safeParse(CreateUniversalWalletSchema, body)
    : v.safeParse(CreateUniversalOrderSchema, body);
  if (!result.success) {
    throw new AppError('validation_failed', firstIssueMessage(result) ?? 'Invalid order');
  }
  return wallet
    ? { form: 'wallet', input: result.output as CreateUniversalWallet }
    : { form: 'order', input: result.output as CreateUniversalOrder };
}
