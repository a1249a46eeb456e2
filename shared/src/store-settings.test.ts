import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  defaultShippingMethodOf,
  defaultShippingOptions,
  deliveryEstimateOf,
  enabledShippingOptions,
  formatTaxRate,
  MAX_TAX_PERCENT,
  offeredShippingPrice,
  percentToBps,
  resolveStoreSettings,
  returnPolicyText,
  ShippingZonesFormSchema,
  STORE_SETTINGS_FORM_MESSAGES,
  STORE_SETTINGS_MESSAGES,
  StoreSettingsFormSchema,
  StoreSettingsSchema,
  settingsFormValues,
  settingsFromForm,
  zoneFormValues,
} from './store-settings.ts';

const messagesOf = (input: unknown) => {
  const result = v.safeParse(StoreSettingsSchema, input);
  return result.success ? [] : result.issues.map((issue) => issue.message);
};
const valid = {
  taxRateBps: 500,
  shippingOptions: {
    free: { enabled: false, priceUsdc: '0', delivery: '10 days' },
    standard: { enabled: true, priceUsdc: '4.5', delivery: '3-5 days' },
    express: { enabled: true, priceUsdc: '9.00', delivery: 'Next day' },
  },
  shippingTime: '1-3 days',
  returnPolicyDays: 14,
};

describe('resolveStoreSettings', () => {
  it('fills the defaults for a store that never set anything', () => {
    const settings = resolveStoreSettings({ shippingOptions: null, returnPolicyDays: null });
    expect(settings.taxRateBps).toBe(800);
    expect(settings.shippingTime).toBe('2-7 days');
    expect(settings.returnPolicyDays).toBe(30);
    expect(settings.shipping.standard).toMatchObject({ priceUsdc: '12.99', enabled: true });
    expect(settings.shipping.express.baseUnits).toBe(24_990_000n);
    expect(settings.shipping.free.delivery).toBe('7-10 business days');
  });

  it("uses the store's own values, and keeps 0 days as no returns", () => {
    const settings = resolveStoreSettings({ ...valid, returnPolicyDays: 0 });
    expect(settings.taxRateBps).toBe(500);
    expect(settings.returnPolicyDays).toBe(0);
    expect(returnPolicyText(settings.returnPolicyDays)).toBe('No returns');
    expect(settings.shipping.standard.priceUsdc).toBe('4.50');
    expect(enabledShippingOptions(settings).map((o) => o.method)).toEqual(['standard', 'express']);
    expect(defaultShippingMethodOf(settings)).toBe('standard');
    expect(offeredShippingPrice(settings, 'free')).toBeUndefined();
    expect(offeredShippingPrice(settings, 'express')).toBe(9_000_000n);
  });

  it('falls back to the defaults when the stored options are unreadable', () => {
    const settings = resolveStoreSettings({ shippingOptions: { free: 'nonsense' } });
    expect(settings.shipping).toEqual(resolveStoreSettings({}).shipping);
  });

  it('tells the delivery estimate from the shipping paid, else the shipping time', () => {
    const settings = resolveStoreSettings(valid);
    expect(deliveryEstimateOf(settings, '9.00')).toBe('Next day');
    expect(deliveryEstimateOf(settings, '1.00')).toBe('1-3 days');
  });

  it('formats rates and policies for people', () => {
    expect(formatTaxRate(800)).toBe('8%');
    expect(formatTaxRate(725)).toBe('7.25%');
    expect(formatTaxRate(0)).toBe('0%');
    expect(returnPolicyText(30)).toBe('30 days');
    expect(returnPolicyText(1)).toBe('1 day');
  });
});

describe('StoreSettingsSchema', () => {
  it('accepts a full form and null resets', () => {
    expect(messagesOf(valid)).toEqual([]);
    expect(
      messagesOf({
        taxRateBps: 0,
        shippingOptions: null,
        shippingTime: null,
        returnPolicyDays: null,
      }),
    ).toEqual([]);
    expect(v.parse(StoreSettingsSchema, { ...valid, shippingTime: '  ' }).shippingTime).toBeNull();
  });

  it('refuses rates, days and prices out of range, with the field message', () => {
    expect(messagesOf({ ...valid, taxRateBps: 5001 })).toEqual([STORE_SETTINGS_MESSAGES.taxRate]);
    expect(messagesOf({ ...valid, taxRateBps: 7.5 })).toEqual([STORE_SETTINGS_MESSAGES.taxRate]);
    expect(messagesOf({ ...valid, returnPolicyDays: -1 })).toEqual([
      STORE_SETTINGS_MESSAGES.returnDays,
    ]);
    const options = defaultShippingOptions();
    expect(
      messagesOf({
        ...valid,
        shippingOptions: { ...options, free: { ...options.free, priceUsdc: '1' } },
      }),
    ).toEqual([STORE_SETTINGS_MESSAGES.freeIsFree]);
    expect(
      messagesOf({
        ...valid,
        shippingOptions: { ...options, standard: { ...options.standard, priceUsdc: '1.234' } },
      }),
    ).toEqual([STORE_SETTINGS_MESSAGES.price]);
    expect(
      messagesOf({
        ...valid,
        shippingOptions: { ...options, express: { ...options.express, priceUsdc: '10000.01' } },
      }),
    ).toEqual([STORE_SETTINGS_MESSAGES.priceTooHigh]);
  });

  it('refuses a store with no shipping method and over-long texts', () => {
    const options = defaultShippingOptions();
    const off = {
      free: { ...options.free, enabled: false },
      standard: { ...options.standard, enabled: false },
      express: { ...options.express, enabled: false },
    };
    expect(messagesOf({ ...valid, shippingOptions: off })).toEqual([
      STORE_SETTINGS_MESSAGES.noneEnabled,
    ]);
    expect(messagesOf({ ...valid, shippingTime: 'x'.repeat(61) })).toEqual([
      'Shipping time must be at most 60 characters',
    ]);
  });
});

describe('the settings form', () => {
  const pathsOf = (input: unknown) => {
    const result = v.safeParse(StoreSettingsFormSchema, input);
    return result.success
      ? {}
      : Object.fromEntries(
          result.issues.map((i) => [i.path?.map((p) => p.key).join('.') ?? '', i.message]),
        );
  };

  it("starts from the store's settings and gives back the same settings", () => {
    const values = settingsFormValues(valid);
    expect(values).toMatchObject({ taxPercent: '5', returnDays: '14', shippingTime: '1-3 days' });
    const body = settingsFromForm(v.parse(StoreSettingsFormSchema, values));
    expect(body).toEqual({
      ...valid,
      shippingOptions: {
        ...valid.shippingOptions,
        free: { ...valid.shippingOptions.free, priceUsdc: '0.00' },
        standard: { ...valid.shippingOptions.standard, priceUsdc: '4.50' },
      },
    });
    expect(v.parse(StoreSettingsSchema, body)).toEqual(body);
  });

  it('converts percentages exactly and puts each message on its field', () => {
    expect(percentToBps('7.25')).toBe(725);
    expect(percentToBps('8')).toBe(800);
    expect(percentToBps('0.5')).toBe(50);
    const values = settingsFormValues({});
    expect(pathsOf({ ...values, taxPercent: '60' })).toEqual({
      taxPercent: STORE_SETTINGS_FORM_MESSAGES.taxPercent,
    });
    expect(pathsOf({ ...values, returnDays: 'ten' })).toEqual({
      returnDays: STORE_SETTINGS_MESSAGES.returnDays,
    });
    const off = (row: { enabled: boolean; priceUsdc: string; delivery: string }) => ({
      ...row,
      enabled: false,
    });
    expect(
      pathsOf({
        ...values,
        shipping: {
          free: off(values.shipping.free),
          standard: off(values.shipping.standard),
          express: { ...off(values.shipping.express), priceUsdc: 'x' },
        },
      }),
    ).toEqual({ 'shipping.express.priceUsdc': STORE_SETTINGS_MESSAGES.price });
  });
});

describe('the settings form with no method offered', () => {
  it('puts the message on the first checkbox', () => {
    const values = settingsFormValues({});
    const shipping = Object.fromEntries(
      Object.entries(values.shipping).map(([m, row]) => [m, { ...row, enabled: false }]),
    );
    const result = v.safeParse(StoreSettingsFormSchema, { ...values, shipping });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe(STORE_SETTINGS_MESSAGES.noneEnabled);
    expect(result.issues?.[0]?.path?.map((p) => p.key)).toEqual(['shipping', 'free', 'enabled']);
  });
});

describe("the zones editor, with the settings form's shipping block and tax cap", () => {
  const zone = () =>
    zoneFormValues({
      name: 'EU',
      countries: ['DE', 'FR'],
      taxRateBps: 2000,
      shipping: resolveStoreSettings({}).shipping,
    });
  const issuesOf = (z: ReturnType<typeof zone>) =>
    v
      .safeParse(ShippingZonesFormSchema, { pricesIncludeTax: false, zones: [z] })
      .issues?.map((issue) => [issue.path?.map((p) => p.key).join('.'), issue.message]);

  it('puts "no method" on the zone\'s first checkbox, as the settings form does', () => {
    const z = zone();
    const off = { ...z.shipping };
    for (const m of ['free', 'standard', 'express'] as const)
      off[m] = { ...off[m], enabled: false };
    expect(issuesOf({ ...z, shipping: off })).toEqual([
      ['zones.0.shipping.free.enabled', STORE_SETTINGS_MESSAGES.noneEnabled],
    ]);
  });

  it('holds free shipping at 0 and the tax at the cap', () => {
    const z = zone();
    expect(
      issuesOf({
        ...z,
        shipping: { ...z.shipping, free: { ...z.shipping.free, priceUsdc: '1.00' } },
      }),
    ).toEqual([['zones.0.shipping.free.priceUsdc', STORE_SETTINGS_MESSAGES.freeIsFree]]);
    expect(issuesOf({ ...z, taxPercent: String(MAX_TAX_PERCENT) })).toBeUndefined();
    expect(issuesOf({ ...z, taxPercent: '50.01' })).toEqual([
      ['zones.0.taxPercent', STORE_SETTINGS_FORM_MESSAGES.taxPercent],
    ]);
    expect(MAX_TAX_PERCENT).toBe(50);
  });
});
