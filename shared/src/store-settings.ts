// Store settings shown on the storefront and used by its checkout: tax rate, shipping methods,
// shipping time, return policy. Stored values may be null (never set): the defaults of
// docs/rules.md#store-settings stand in.
import * as v from 'valibot';
import { RETURN_POLICY_DAYS, SHIPPING_METHODS, SHIPPING_OPTIONS } from './constants.ts';
import { countryName, isCountryCode } from './countries.ts';
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
  /** Most shipping zones a store may define (besides the rest of the world). */
  maxZones: 20,
  /** Longest zone name. */
  zoneName: 60,
  /** Most countries in one zone. */
  maxZoneCountries: 250,
} as const;

/** Highest tax rate the settings forms take, in percent (STORE_SETTINGS_LIMITS.maxTaxRateBps). */
export const MAX_TAX_PERCENT = STORE_SETTINGS_LIMITS.maxTaxRateBps / 100;

/** The name of the zone that takes every country no zone lists: the store's own rate and methods. */
export const FALLBACK_ZONE_NAME = 'Rest of world';

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
  zoneName: 'Zone name is required',
  zoneNameTwice: (name: string) => `Two zones are named ${name}; give each zone its own name`,
  zoneCountry: 'Country must be an ISO 3166-1 alpha-2 code such as DE',
  zoneNoCountries: 'A zone needs at least one country',
  zoneTooManyCountries: `A zone can hold at most ${STORE_SETTINGS_LIMITS.maxZoneCountries} countries`,
  tooManyZones: `A store can have at most ${STORE_SETTINGS_LIMITS.maxZones} shipping zones`,
  countryTwice: (code: string, first: string, second: string) =>
    `${countryName(code)} (${code}) is in both ${first} and ${second}; a country belongs to one zone`,
  zoneMethodOff: (label: string, zone: string) =>
    `${label} shipping is not offered to ${zone}; choose another method`,
  zoneShippingPrice: (label: string, zone: string, price: string) =>
    `${label} shipping to ${zone} costs ${price} USDC; refresh the checkout and try again`,
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

const taxRateSchema = v.pipe(
  v.number(M.taxRate),
  v.integer(M.taxRate),
  v.minValue(0, M.taxRate),
  v.maxValue(STORE_SETTINGS_LIMITS.maxTaxRateBps, M.taxRate),
);

const zoneCountrySchema = v.pipe(
  v.string(M.zoneCountry),
  v.trim(),
  v.toUpperCase(),
  v.check(isCountryCode, M.zoneCountry),
);

/** A shipping zone: its countries (ISO 3166-1 alpha-2), its tax rate and its shipping methods. */
export const ShippingZoneSchema = v.object({
  name: v.pipe(
    v.string(M.zoneName),
    v.trim(),
    v.nonEmpty(M.zoneName),
    maxChars('Zone name', STORE_SETTINGS_LIMITS.zoneName),
  ),
  countries: v.pipe(
    v.array(zoneCountrySchema, M.zoneNoCountries),
    v.minLength(1, M.zoneNoCountries),
    v.maxLength(STORE_SETTINGS_LIMITS.maxZoneCountries, M.zoneTooManyCountries),
    v.transform((codes) => [...new Set(codes)]),
  ),
  taxRateBps: taxRateSchema,
  shippingOptions: StoreShippingOptionsSchema,
});
/** A shipping zone as stored. */
export type ShippingZone = v.InferOutput<typeof ShippingZoneSchema>;

/**
 * A store's shipping zones, at most 20, each country in one zone at most and each name once; a
 * country in none is shipped to with the store's own rate and methods (the rest of the world).
 */
export const ShippingZonesSchema = v.pipe(
  v.array(ShippingZoneSchema),
  v.maxLength(STORE_SETTINGS_LIMITS.maxZones, M.tooManyZones),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const zoneOf = new Map<string, string>();
    const names = new Set<string>();
    for (const zone of dataset.value) {
      const key = zone.name.toLowerCase();
      if (names.has(key) || key === FALLBACK_ZONE_NAME.toLowerCase())
        return addIssue({ message: M.zoneNameTwice(zone.name) });
      names.add(key);
      for (const code of zone.countries) {
        const first = zoneOf.get(code);
        if (first !== undefined)
          return addIssue({ message: M.countryTwice(code, first, zone.name) });
        zoneOf.set(code, zone.name);
      }
    }
  }),
);

/** The settings fields of the store form (PUT /api/stores/{id}); null resets one to its default. */
export const StoreSettingsEntries = {
  taxRateBps: taxRateSchema,
  /** Zones of countries with their own tax rate and methods; [] ships everywhere alike. */
  shippingZones: ShippingZonesSchema,
  /** Whether prices include the tax (shown, not added) or the tax is added at checkout. */
  pricesIncludeTax: v.boolean('Prices include tax must be true or false'),
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
export const StoreSettingsSchema = v.object({
  ...StoreSettingsEntries,
  // Note: the zones have their own editor; the settings form leaves them as they are.
  shippingZones: v.optional(StoreSettingsEntries.shippingZones),
  pricesIncludeTax: v.optional(StoreSettingsEntries.pricesIncludeTax),
});
/** Validated store settings as stored (nulls: the defaults). */
export type StoreSettings = v.InferOutput<typeof StoreSettingsSchema>;

/** What a store record carries of its settings (any may be missing in an old cached copy). */
export interface StoredStoreSettings {
  taxRateBps?: number | null;
  shippingOptions?: unknown;
  shippingTime?: string | null;
  returnPolicyDays?: number | null;
  shippingZones?: unknown;
  pricesIncludeTax?: boolean | null;
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

/** A shipping zone with its methods resolved. */
export interface ResolvedShippingZone {
  name: string;
  countries: readonly string[];
  taxRateBps: number;
  shipping: Record<ShippingMethod, ResolvedShippingOption>;
}

/**
 * A store's settings with the defaults where none were set. `taxRateBps` and `shipping` are the
 * rest of the world's until settingsForCountry picks the zone of a shipping country.
 */
export interface ResolvedStoreSettings {
  taxRateBps: number;
  shipping: Record<ShippingMethod, ResolvedShippingOption>;
  shippingTime: string;
  /** 0: no returns. */
  returnPolicyDays: number;
  /** Whether the prices include the tax. */
  pricesIncludeTax: boolean;
  /** The store's zones (not the rest of the world). */
  zones: readonly ResolvedShippingZone[];
  /** The zone `taxRateBps` and `shipping` are of: FALLBACK_ZONE_NAME or a zone's name. */
  zone: string;
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

/** The store's zones; a missing or unreadable stored value means none. */
export function shippingZonesOf(stored: unknown): ShippingZone[] {
  const parsed = v.safeParse(ShippingZonesSchema, stored);
  return parsed.success ? parsed.output : [];
}

/** Resolves a store's settings, filling the defaults for what the merchant never set. */
export function resolveStoreSettings(store: StoredStoreSettings): ResolvedStoreSettings {
  return {
    taxRateBps: store.taxRateBps ?? DEFAULT_TAX_RATE_BPS,
    shipping: resolveShipping(shippingOptionsOf(store.shippingOptions)),
    shippingTime: store.shippingTime?.trim() || DEFAULT_SHIPPING_TIME,
    returnPolicyDays: store.returnPolicyDays ?? RETURN_POLICY_DAYS,
    pricesIncludeTax: store.pricesIncludeTax ?? false,
    zones: shippingZonesOf(store.shippingZones).map((zone) => ({
      name: zone.name,
      countries: zone.countries,
      taxRateBps: zone.taxRateBps,
      shipping: resolveShipping(zone.shippingOptions),
    })),
    zone: FALLBACK_ZONE_NAME,
  };
}

/** The zone that ships to `country` (an ISO code); undefined: the rest of the world. */
export function zoneForCountry(
  settings: ResolvedStoreSettings,
  country: string | null | undefined,
): ResolvedShippingZone | undefined {
  const code = country?.trim().toUpperCase();
  if (!code) return undefined;
  return settings.zones.find((zone) => zone.countries.includes(code));
}

/**
 * The settings a checkout to `country` is priced with: the tax rate and methods of the zone that
 * lists the country, else the store's own (the rest of the world).
 */
export function settingsForCountry(
  settings: ResolvedStoreSettings,
  country: string | null | undefined,
): ResolvedStoreSettings {
  const zone = zoneForCountry(settings, country);
  if (!zone) return { ...settings, zone: FALLBACK_ZONE_NAME };
  return { ...settings, taxRateBps: zone.taxRateBps, shipping: zone.shipping, zone: zone.name };
}

function resolveShipping(options: StoreShippingOptions) {
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
  return shipping;
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
  taxPercent: `Tax rate must be a percentage from 0 to ${MAX_TAX_PERCENT} with at most 2 decimals`,
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

/** A tax rate as typed in percent: up to 2 decimals, at most MAX_TAX_PERCENT. */
const TaxPercentFormSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(percentPattern, STORE_SETTINGS_FORM_MESSAGES.taxPercent),
  v.check((s) => Number(s) <= MAX_TAX_PERCENT, STORE_SETTINGS_FORM_MESSAGES.taxPercent),
);

/**
 * The shipping methods block of the settings form and of a zone: a row per method, free at 0, at
 * least one enabled (the message on the first checkbox).
 */
export const ShippingMethodsFormSchema = v.pipe(
  v.object({
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
  v.forward(
    v.check((rows) => SHIPPING_METHODS.some((m) => rows[m].enabled), M.noneEnabled),
    // Note: valibot types forward paths one key deep here; the message belongs on the checkbox.
    ['free', 'enabled'] as unknown as ['free'],
  ),
);

/**
 * The admin Settings form as typed (percent and days as text, one row a method); its output is the
 * body PUT /api/stores/{id} takes. Messages sit on the field that is wrong.
 */
export const StoreSettingsFormSchema = v.object({
  taxPercent: TaxPercentFormSchema,
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
  shipping: ShippingMethodsFormSchema,
});
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

/** A zone of the zones editor as typed: its countries as codes separated by commas or spaces. */
const ZoneFormSchema = v.object({
  name: ShippingZoneSchema.entries.name,
  countries: v.pipe(
    v.string(),
    v.transform((s) =>
      s
        .split(/[\s,;]+/)
        .map((code) => code.trim().toUpperCase())
        .filter((code) => code !== ''),
    ),
    v.minLength(1, M.zoneNoCountries),
    v.maxLength(STORE_SETTINGS_LIMITS.maxZoneCountries, M.zoneTooManyCountries),
    v.check((codes) => codes.every(isCountryCode), M.zoneCountry),
  ),
  taxPercent: TaxPercentFormSchema,
  shipping: ShippingMethodsFormSchema,
});

/** A zone's stored form from the editor's validated values. */
function zoneFromForm(zone: v.InferOutput<typeof ZoneFormSchema>): ShippingZone {
  return {
    name: zone.name,
    countries: [...new Set(zone.countries)],
    taxRateBps: percentToBps(zone.taxPercent),
    shippingOptions: zone.shipping,
  };
}

/**
 * The zones editor as typed (one entry a zone, countries as text, the rate in percent); its
 * output, through shippingZonesFromForm, is the body PUT /api/stores/{id} takes. A country in two
 * zones or a name used twice is the form's own message (ShippingZonesSchema's).
 */
export const ShippingZonesFormSchema = v.pipe(
  v.object({
    pricesIncludeTax: v.boolean(),
    zones: v.pipe(
      v.array(ZoneFormSchema),
      v.maxLength(STORE_SETTINGS_LIMITS.maxZones, M.tooManyZones),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    // Note: only once each zone is right (a field's own message says enough until then).
    if (!dataset.typed || dataset.issues) return;
    const parsed = v.safeParse(ShippingZonesSchema, dataset.value.zones.map(zoneFromForm));
    if (!parsed.success) for (const issue of parsed.issues) addIssue({ message: issue.message });
  }),
);
/** The zones editor's values. */
export type ShippingZonesFormValues = v.InferInput<typeof ShippingZonesFormSchema>;
/** One zone of the editor. */
export type ZoneFormValues = ShippingZonesFormValues['zones'][number];

/** The editor's values for a store's zones. */
export function shippingZonesFormValues(store: StoredStoreSettings): ShippingZonesFormValues {
  const settings = resolveStoreSettings(store);
  return {
    pricesIncludeTax: settings.pricesIncludeTax,
    zones: settings.zones.map((zone) => zoneFormValues(zone)),
  };
}

/** The editor's values of one zone (a new one: the rest of the world's methods, no tax). */
export function zoneFormValues(zone: {
  name: string;
  countries: readonly string[];
  taxRateBps: number;
  shipping: Record<ShippingMethod, ResolvedShippingOption>;
}): ZoneFormValues {
  const row = (m: ShippingMethod) => ({
    enabled: zone.shipping[m].enabled,
    priceUsdc: zone.shipping[m].priceUsdc,
    delivery: zone.shipping[m].delivery,
  });
  return {
    name: zone.name,
    countries: zone.countries.join(', '),
    taxPercent: String(zone.taxRateBps / 100),
    shipping: { free: row('free'), standard: row('standard'), express: row('express') },
  };
}

/** The PUT body of the editor's validated values. */
export function shippingZonesFromForm(form: v.InferOutput<typeof ShippingZonesFormSchema>): {
  pricesIncludeTax: boolean;
  shippingZones: ShippingZone[];
} {
  return { pricesIncludeTax: form.pricesIncludeTax, shippingZones: form.zones.map(zoneFromForm) };
}
