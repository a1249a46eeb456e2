// Store schemas: the admin store form (POST /api/stores, PUT /api/stores/{id}), the store read model
// and the per-store analytics.
import * as v from 'valibot';
import { isEthereumAddress, isZeroAddress } from '../address.ts';
import { DEFAULT_COLORS, DEFAULT_OWNER_ID, DEFAULT_THEME } from '../constants.ts';
import { InvoiceSettingsEntries } from '../invoices.ts';
import { maxChars, optionalCappedText, TEXT_LIMITS } from '../limits.ts';
import { STORE_FORM_MESSAGES as M, PAYOUT_ADDRESS_MESSAGES } from '../messages.ts';
import { SLUG_PATTERN } from '../slug.ts';
import {
  NEW_STORE_TAX_RATE_BPS,
  newStoreShippingOptions,
  StoreSettingsEntries,
  StoreShippingOptionsSchema,
} from '../store-settings.ts';
import {
  hexColor,
  MoneyStringSchema,
  missingAsEmpty,
  requiredCappedText,
  ThemeSchema,
} from './common.ts';

/** Refusal of a reply-to that is not an email address. */
export const STORE_REPLY_TO_MESSAGE = 'Reply-to must be an email address';

/** Slug: required, then lowercase letters, digits and hyphens only. */
export const SlugSchema = v.pipe(
  missingAsEmpty(M.slugRequired),
  v.trim(),
  v.nonEmpty(M.slugRequired),
  maxChars('Slug', TEXT_LIMITS.slug),
  v.regex(SLUG_PATTERN, M.slugFormat),
);

/** Optional payment address: empty or absent means none, else 0x + 40 hex. */
export const OptionalPaymentAddressSchema = v.nullish(
  v.pipe(
    v.string(M.paymentAddress),
    v.check((s) => s === '' || isEthereumAddress(s), M.paymentAddress),
    v.check((s) => !isZeroAddress(s), PAYOUT_ADDRESS_MESSAGES.zero),
  ),
);

const HexColorSchema = hexColor(M.hexColor);

/** Where shoppers' replies to the store's receipts go: empty or absent means none. */
const ReplyToEmailSchema = v.pipe(
  v.string(STORE_REPLY_TO_MESSAGE),
  v.trim(),
  v.check((s) => s === '' || v.is(v.pipe(v.string(), v.email()), s), STORE_REPLY_TO_MESSAGE),
  maxChars('Reply-to email', TEXT_LIMITS.email),
);

// Note: no defaults here, so `v.partial` of these entries leaves unsent fields undefined on update.
const storeEntries = {
  name: requiredCappedText(M.nameRequired, 'Store name', TEXT_LIMITS.name),
  slug: SlugSchema,
  description: optionalCappedText('Description', TEXT_LIMITS.description),
  domain: optionalCappedText('Domain', TEXT_LIMITS.url),
  logoUrl: optionalCappedText('Logo URL', TEXT_LIMITS.url),
  paymentAddress: OptionalPaymentAddressSchema,
  replyToEmail: v.optional(ReplyToEmailSchema),
  theme: ThemeSchema,
  primaryColor: HexColorSchema,
  secondaryColor: HexColorSchema,
  accentColor: HexColorSchema,
  ownerId: requiredCappedText(M.ownerRequired, 'Owner', TEXT_LIMITS.name),
  isActive: v.boolean(),
};

/**
 * Body of POST /api/stores (the Create New Store form), with the defaults filled in; a new
 * store charges no tax and ships free until its merchant sets a rate and methods (here or later).
 */
export const CreateStoreSchema = v.object({
  ...storeEntries,
  taxRateBps: v.optional(StoreSettingsEntries.taxRateBps, NEW_STORE_TAX_RATE_BPS),
  shippingOptions: v.optional(StoreShippingOptionsSchema, newStoreShippingOptions),
  theme: v.optional(ThemeSchema, DEFAULT_THEME),
  primaryColor: v.optional(HexColorSchema, DEFAULT_COLORS.primary),
  secondaryColor: v.optional(HexColorSchema, DEFAULT_COLORS.secondary),
  accentColor: v.optional(HexColorSchema, DEFAULT_COLORS.accent),
  ownerId: v.optional(storeEntries.ownerId, DEFAULT_OWNER_ID),
  isActive: v.optional(v.boolean(), true),
});
/** Input of the store form (what the browser sends). */
export type CreateStoreInput = v.InferInput<typeof CreateStoreSchema>;
/** A validated store creation body. */
export type CreateStore = v.InferOutput<typeof CreateStoreSchema>;

/**
 * Body of PUT /api/stores/{id}: any subset of the store fields and of its settings (tax rate,
 * shipping methods, shipping time, return policy; the invoice's legal details, the receipt's
 * invoice, customer data retention), same rules, no defaults.
 */
export const UpdateStoreSchema = v.partial(
  v.object({ ...storeEntries, ...StoreSettingsEntries, ...InvoiceSettingsEntries }),
);
/** A validated store update body. */
export type UpdateStore = v.InferOutput<typeof UpdateStoreSchema>;

/**
 * GET /api/stores/{id}/analytics. Note: revenue is a 2-decimal string, not a number, to keep floats
 * off money.
 */
export const StoreAnalyticsSchema = v.object({
  activeProducts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  totalRevenue30Days: MoneyStringSchema,
  totalOrders30Days: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
/** Per-store 30-day figures. */
export type StoreAnalytics = v.InferOutput<typeof StoreAnalyticsSchema>;

/** Messages of the payout-address verification ("Verified Store"). */
export const PAYOUT_VERIFICATION_MESSAGES = {
  noPayoutAddress: 'Set a payout address before verifying it',
  badMessage: 'The signed message is not the one issued for this store; start again',
  badSignature: "The signature is not from the store's payout address",
  expired: 'This verification request has expired or was already used; start again',
} as const;

/** Body of POST /api/stores/{id}/verification: the issued EIP-4361 message and its signature. */
export const VerifyPayoutSchema = v.object({
  message: v.pipe(
    v.string(PAYOUT_VERIFICATION_MESSAGES.badMessage),
    v.nonEmpty(PAYOUT_VERIFICATION_MESSAGES.badMessage),
    maxChars('Message', 4_000),
  ),
  // Note: 65 bytes from an ordinary account; longer signatures (smart wallets) are capped too.
  signature: v.pipe(
    v.string(PAYOUT_VERIFICATION_MESSAGES.badSignature),
    v.regex(/^0x[0-9a-fA-F]{130,2000}$/, PAYOUT_VERIFICATION_MESSAGES.badSignature),
  ),
});
/** A signed verification. */
export type VerifyPayout = v.InferOutput<typeof VerifyPayoutSchema>;

/** Answer of POST /api/stores/{id}/verification/challenge: the message to sign, until when. */
export const PayoutChallengeSchema = v.object({
  message: v.string(),
  address: v.string(),
  expiresAt: v.string(),
});
/** A verification challenge. */
export type PayoutChallenge = v.InferOutput<typeof PayoutChallengeSchema>;
