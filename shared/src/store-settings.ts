// Store settings shown on the storefront and used by its checkout: tax rate, shipping methods,
// shipping time, return policy. Stored values may be null (never set): the defaults of
// docs/rules.md#store-settings stand in.
import * as v from 'valibot';
import { RETURN_POLICY_DAYS, SHIPPING_METHODS, SHIPPING_OPTIONS } from './constants.ts';
import { maxChars } from './limits.ts';
import { formatUsdc, tryParseUsdc, type Usdc } from './money.ts';
import type { ShippingMethod } from './schemas/common.ts';

/** Limits of the store settings form. */
export const STORE_SETTINGS_LIMITS = {
  /** Highest tax rate, in basis points (50%). */
  maxTaxRateBps: 5_000,
  /** Longest return window, in days. */
  maxReturnDays: 365,
  /** Highest shipping price, in USDC. */
  maxShippingUsdc: '10000.00',
  /** Longest delivery or shipping-time text. */
  deliveryText: 60,
} as const;

/** The former default tax rate (8%) in basis points: what a store record without one (an old copy) reads as. */
export const DEFAULT_TAX_RATE_BPS = 800;
/** A new store's tax rate: none, until its merchant sets one (a rate is the merchant's to know). */
export const NEW_STORE_TAX_RATE_BPS = 0;
/** The product page's shipping time of a store that set none. */
export const DEFAULT_SHIPPING_TIME = '2-7 days';

/** Messages of the store settings form. */
export const STORE_SETTINGS_MESSAGES = {
  taxRate: `Tax rate must be a whole number of basis points from 0 to ${STORE_SETTINGS_LIMITS.maxTaxRateBps} (0% to 50%)`,
  returnDays: `Return window must be a whole number of days from 0 to ${STORE_SETTINGS_LIMITS.maxReturnDays}`,
  price: 'Price must be a decimal with at most 2 decimals',
  priceTooHigh: `Price must be at most ${STORE_SETTINGS_LIMITS.maxShippingUsdc} USDC`,
  freeIsFree: 'Free shipping must cost 0.00',
  deliveryRequired: 'Delivery time is required',
  noneEnabled: 'Offer at least one shipping method',
  methodOff: (label: string) =>
    `${label} shipping is not offered by this store; choose another method`,
} as const;
const M = STORE_SETTINGS_MESSAGES;

const priceSchema = v.pipe(
  v.string(M.price),
  v.trim(),
  v.check((s) => tryParseUsdc(s) !== undefined && /^\d+(\.\d{1,2})?$/.test(s), M.price),
  v.check(
    (s) => (tryParseUsdc(s) ?? 0n) <= (tryParseUsdc(STORE_SETTINGS_LIMITS.maxShippingUsdc) ?? 0n),
    M.priceTooHigh,
  ),
  v.transform((s) => formatUsdc(tryParseUsdc(s) ?? 0n)),
);

const deliverySchema = v.pipe(
  v.string(M.deliveryRequired),
  v.trim(),
  v.nonEmpty(M.deliveryRequired),
  maxChars('Delivery time', STORE_SETTINGS_LIMITS.deliveryText),
);

/** One shipping method as a store offers it. */
export const ShippingOptionSettingSchema = v.object({
  enabled: v.boolean(),
  priceUsdc: priceSchema,
  delivery: deliverySchema,
});
/** A shipping method's setting. */
export type ShippingOptionSetting = v.InferOutput<typeof ShippingOptionSettingSchema>;

/** The three methods with their settings; free must cost 0 and one at least must be offered. */
export const StoreShippingOptionsSchema = v.pipe(
  v.object({
    free: v.object({
      ...ShippingOptionSettingSchema.entries,
      priceUsdc: v.pipe(
        priceSchema,
        v.check((s) => tryParseUsdc(s) === 0n, M.freeIsFree),
      ),
    }),
    standard: ShippingOptionSettingSchema,
    express: ShippingOptionSettingSchema,
  }),
  v.check((options) => SHIPPING_METHODS.some((m) => options[m].enabled), M.noneEnabled),
);
/** A store's shipping methods. */
export type StoreShippingOptions = v.InferOutput<typeof StoreShippingOptionsSchema>;

/** The settings fields of the store form (PUT /api/stores/{id}); null resets one to its default. */
export const StoreSettingsEntries = {
  taxRateBps: v.pipe(
    v.number(M.taxRate),
    v.integer(M.taxRate),
    v.minValue(0, M.taxRate),
    v.maxValue(STORE_SETTINGS_LIMITS.maxTaxRateBps, M.taxRate),
  ),
  shippingOptions: v.nullable(StoreShippingOptionsSchema),
  shippingTime: v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      maxChars('Shipping time', STORE_SETTINGS_LIMITS.deliveryText),
      v.transform((s) => (s === '' ? null : s)),
    ),
  ),
  returnPolicyDays: v.nullable(
    v.pipe(
      v.number(M.returnDays),
      v.integer(M.returnDays),
      v.minValue(0, M.returnDays),
      v.maxValue(STORE_SETTINGS_LIMITS.maxReturnDays, M.returnDays),
    ),
  ),
};

/** The whole settings form (the admin Settings section validates with it). */
export const StoreSettingsSchema = v.object(StoreSettingsEntries);
/** Validated store settings as stored (nulls: the defaults). */
export type StoreSettings = v.InferOutput<typeof StoreSettingsSchema>;

/** What a store record carries of its settings (any may be missing in an old cached copy). */
export interface StoredStoreSettings {
  taxRateBps?: number | null;
  shippingOptions?: unknown;
  shippingTime?: string | null;
  returnPolicyDays?: number | null;
}

/** A shipping method as the checkout offers it. */
export interface ResolvedShippingOption {
  method: ShippingMethod;
  label: string;
  enabled: boolean;
  priceUsdc: string;
  baseUnits: Usdc;
  delivery: string;
}

/** A store's settings with the defaults where none were set. */
export interface ResolvedStoreSettings {
  taxRateBps: number;
  shipping: Record<ShippingMethod, ResolvedShippingOption>;
  shippingTime: string;
  /** 0: no returns. */
  returnPolicyDays: number;
}

/** The default shipping methods (all offered, 0 / 12.99 / 24.99). */
export function defaultShippingOptions(): StoreShippingOptions {
  return {
    free: { enabled: true, priceUsdc: '0.00', delivery: SHIPPING_OPTIONS.free.delivery },
    standard: {
      enabled: true,
      priceUsdc: SHIPPING_OPTIONS.standard.priceUsdc,
      delivery: SHIPPING_OPTIONS.standard.delivery,
    },
    express: {
      enabled: true,
      priceUsdc: SHIPPING_OPTIONS.express.priceUsdc,
      delivery: SHIPPING_OPTIONS.express.delivery,
    },
  };
}

/**
 * A new store's shipping: free only, until its merchant offers more (standard and express wait,
 * unticked, at their standard prices). Note: no price the merchant never chose is charged to a shopper.
 */
export function newStoreShippingOptions(): StoreShippingOptions {
  const spec = defaultShippingOptions();
  return {
    free: spec.free,
    standard: { ...spec.standard, enabled: false },
    express: { ...spec.express, enabled: false },
  };
}

/** The store's shipping methods; a missing or unreadable stored value means the defaults. */
export function shippingOptionsOf(stored: unknown): StoreShippingOptions {
  const parsed = v.safeParse(StoreShippingOptionsSchema, stored);
  return parsed.success ? parsed.output : defaultShippingOptions();
}

/** Resolves a store's settings, filling the defaults for what the merchant never set. */
export function resolveStoreSettings(store: StoredStoreSettings): ResolvedStoreSettings {
  const options = shippingOptionsOf(store.shippingOptions);
  const shipping = {} as Record<ShippingMethod, ResolvedShippingOption>;
  for (const method of SHIPPING_METHODS) {
    const option = options[method];
    const baseUnits = tryParseUsdc(option.priceUsdc) ?? 0n;
    shipping[method] = {
      method,
      label: SHIPPING_OPTIONS[method].label,
      enabled: option.enabled,
      priceUsdc: formatUsdc(baseUnits),
      baseUnits,
      delivery: option.delivery,
    };
  }
  return {
    taxRateBps: store.taxRateBps ?? DEFAULT_TAX_RATE_BPS,
    shipping,
    shippingTime: store.shippingTime?.trim() || DEFAULT_SHIPPING_TIME,
    returnPolicyDays: store.returnPolicyDays ?? RETURN_POLICY_DAYS,
  };
}

/** The methods the store offers, in their order (free, standard, express). */
export function enabledShippingOptions(settings: ResolvedStoreSettings): ResolvedShippingOption[] {
  return SHIPPING_METHODS.map((m) => settings.shipping[m]).filter((o) => o.enabled);
}

/** The method a checkout starts on: free when offered, else the first offered. */
export function defaultShippingMethodOf(settings: ResolvedStoreSettings): ShippingMethod {
  return enabledShippingOptions(settings)[0]?.method ?? 'free';
}

/** The price of an offered method; undefined when the store does not offer it. */
export function offeredShippingPrice(
  settings: ResolvedStoreSettings,
  method: ShippingMethod,
): Usdc | undefined {
  const option = settings.shipping[method];
  return option.enabled ? option.baseUnits : undefined;
}

/** A tax rate in basis points as a percentage for people ("8%", "7.25%"). */
export function formatTaxRate(bps: number): string {
  return `${Number((bps / 100).toFixed(2))}%`;
}

/** The return policy for people: "30 days" or "No returns". */
export function returnPolicyText(days: number): string {
  if (days <= 0) return 'No returns';
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** The delivery estimate of a placed order: the method whose price it paid, else the shipping time. */
export function deliveryEstimateOf(settings: ResolvedStoreSettings, shippingUsdc: string): string {
  const paid = tryParseUsdc(shippingUsdc);
  const matches = enabledShippingOptions(settings).filter((o) => o.baseUnits === paid);
  return matches.length === 1 && matches[0] ? matches[0].delivery : settings.shippingTime;
}

/** Messages of the settings form's text inputs. */
export const STORE_SETTINGS_FORM_MESSAGES = {
  taxPercent: 'Tax rate must be a percentage from 0 to 50 with at most 2 decimals',
  returnDays: M.returnDays,
} as const;

const percentPattern = /^\d{1,2}(\.\d{1,2})?$/;
const daysPattern = /^\d{1,3}$/;

/** A shipping method row of the settings form. */
const ShippingRowFormSchema = v.object({
  enabled: v.boolean(),
  priceUsdc: priceSchema,
  delivery: deliverySchema,
});

/**
 * The admin Settings form as typed (percent and days as text, one row a method); its output is the
 * body PUT /api/stores/{id} takes. Messages sit on the field that is wrong.
 */
export const StoreSettingsFormSchema = v.pipe(
  v.object({
    taxPercent: v.pipe(
      v.string(),
      v.trim(),
      v.regex(percentPattern, STORE_SETTINGS_FORM_MESSAGES.taxPercent),
      v.check((s) => Number(s) <= 50, STORE_SETTINGS_FORM_MESSAGES.taxPercent),
    ),
    shippingTime: v.pipe(
      v.string(),
      v.trim(),
      maxChars('Shipping time', STORE_SETTINGS_LIMITS.deliveryText),
    ),
    returnDays: v.pipe(
      v.string(),
      v.trim(),
      v.regex(daysPattern, M.returnDays),
      v.check((s) => Number(s) <= STORE_SETTINGS_LIMITS.maxReturnDays, M.returnDays),
    ),
    shipping: v.object({
      free: v.object({
        ...ShippingRowFormSchema.entries,
        priceUsdc: v.pipe(
          priceSchema,
          v.check((s) => tryParseUsdc(s) === 0n, M.freeIsFree),
        ),
      }),
      standard: ShippingRowFormSchema,
      express: ShippingRowFormSchema,
    }),
  }),
  v.forward(
    v.check((form) => SHIPPING_METHODS.some((m) => form.shipping[m].enabled), M.noneEnabled),
    // Note: valibot types forward paths two keys deep; the message belongs on the first checkbox.
    ['shipping', 'free', 'enabled'] as unknown as ['shipping', 'free'],
  ),
);
/** The settings form's values. */
export type StoreSettingsFormValues = v.InferInput<typeof StoreSettingsFormSchema>;

/** "7.25" percent as basis points (725), exactly. */
export function percentToBps(percent: string): number {
  const [whole = '0', fraction = ''] = percent.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** The form's values for a store (its settings, or the defaults where none are set). */
export function settingsFormValues(store: StoredStoreSettings): StoreSettingsFormValues {
  const settings = resolveStoreSettings(store);
  const row = (m: ShippingMethod) => ({
    enabled: settings.shipping[m].enabled,
    priceUsdc: settings.shipping[m].priceUsdc,
    delivery: settings.shipping[m].delivery,
  });
  return {
    taxPercent: String(settings.taxRateBps / 100),
    shippingTime: settings.shippingTime,
    returnDays: String(settings.returnPolicyDays),
    shipping: { free: row('free'), standard: row('standard'), express: row('express') },
  };
}

/** The PUT body of validated form values. */
export function settingsFromForm(
  form: v.InferOutput<typeof StoreSettingsFormSchema>,
): StoreSettings {
  return {
    taxRateBps: percentToBps(form.taxPercent),
    shippingOptions: form.shipping,
    shippingTime: form.shippingTime === '' ? null : form.shippingTime,
    returnPolicyDays: Number(form.returnDays),
  };
}
