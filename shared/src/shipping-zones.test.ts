// Shipping zones: which zone a country falls in, its methods and tax rate, the zones' validation,
// and the totals a checkout to each country gets.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from './countries.ts';
import { prepareStoreOrder, storeOrderTotals } from './store-checkout.ts';
import {
  FALLBACK_ZONE_NAME,
  resolveStoreSettings,
  ShippingZonesFormSchema,
  ShippingZonesSchema,
  STORE_SETTINGS_LIMITS,
  STORE_SETTINGS_MESSAGES,
  settingsForCountry,
  shippingZonesFormValues,
  shippingZonesFromForm,
  zoneForCountry,
  zoneFormValues,
} from './store-settings.ts';

const options = (standard: string, express: string, free = false) => ({
  free: { enabled: free, priceUsdc: '0.00', delivery: '10 days' },
  standard: { enabled: true, priceUsdc: standard, delivery: '3-5 days' },
  express: { enabled: true, priceUsdc: express, delivery: 'Next day' },
});
const store = {
  taxRateBps: 0,
  shippingOptions: options('20.00', '40.00'),
  shippingZones: [
    {
      name: 'Germany',
      countries: ['DE'],
      taxRateBps: 1900,
      shippingOptions: options('4.90', '9.90'),
    },
    {
      name: 'United States',
      countries: ['US'],
      taxRateBps: 725,
      shippingOptions: options('12.99', '24.99', true),
    },
  ],
};
const lines = [{ productId: 'p', title: 'Mug', priceUsdc: '50.00', quantity: 2 }];

describe('the zone of a country', () => {
  const settings = resolveStoreSettings(store);

  it('picks the zone that lists the country, else the rest of the world', () => {
    expect(zoneForCountry(settings, 'DE')?.name).toBe('Germany');
    expect(zoneForCountry(settings, 'de')?.name).toBe('Germany');
    expect(zoneForCountry(settings, 'US')?.name).toBe('United States');
    expect(zoneForCountry(settings, 'JP')).toBeUndefined();
    expect(zoneForCountry(settings, undefined)).toBeUndefined();
    expect(settingsForCountry(settings, 'JP').zone).toBe(FALLBACK_ZONE_NAME);
  });

  it("prices each country with its zone's method and rate", () => {
    const de = storeOrderTotals(lines, 'standard', settingsForCountry(settings, 'DE'));
    // 100.00 + 4.90 + 19% of 100.00
    expect(de).toMatchObject({ shippingUsdc: '4.90', taxUsdc: '19.00', totalUsdc: '123.90' });
    const us = storeOrderTotals(lines, 'standard', settingsForCountry(settings, 'US'));
    // 7.25% of 100.00 = 7.25
    expect(us).toMatchObject({ shippingUsdc: '12.99', taxUsdc: '7.25', totalUsdc: '120.24' });
    const jp = storeOrderTotals(lines, 'express', settingsForCountry(settings, 'JP'));
    expect(jp).toMatchObject({ shippingUsdc: '40.00', taxUsdc: '0.00', totalUsdc: '140.00' });
    // Free shipping is offered to the United States only.
    expect(storeOrderTotals(lines, 'free', settingsForCountry(settings, 'DE'))).toBeUndefined();
  });

  it('a store with no zones prices every country as before', () => {
    const flat = resolveStoreSettings({
      taxRateBps: 800,
      shippingOptions: options('5.00', '9.00'),
    });
    for (const country of ['DE', 'US', 'JP']) {
      expect(storeOrderTotals(lines, 'standard', settingsForCountry(flat, country))).toMatchObject({
        shippingUsdc: '5.00',
        taxUsdc: '8.00',
        totalUsdc: '113.00',
      });
    }
  });

  it('includes the tax in the prices when the store says so', () => {
    const gross = resolveStoreSettings({ ...store, pricesIncludeTax: true });
    const de = storeOrderTotals(lines, 'standard', settingsForCountry(gross, 'DE'));
    // 19% inside 100.00 = 15.966 -> 15.97, not added.
    expect(de).toMatchObject({ taxUsdc: '15.97', totalUsdc: '104.90', taxIncluded: true });
  });

  it("builds the order body with the form country's zone, refusing a method it does not offer", () => {
    const form = {
      customerEmail: 'a@example.com',
      firstName: 'Ada',
      lastName: 'L',
      email: 'a@example.com',
      phone: '+49 30 123456',
      street: 'Unter den Linden 1',
      city: 'Berlin',
      zipCode: '10117',
      country: 'DE',
      shippingMethod: 'standard',
    } as unknown as Parameters<typeof prepareStoreOrder>[2];
    const body = prepareStoreOrder(lines, 'store-1', form, resolveStoreSettings(store));
    expect(body.ok && body.value).toMatchObject({ shippingUsdc: '4.90', totalUsdc: '123.90' });
    const free = prepareStoreOrder(
      lines,
      'store-1',
      { ...form, shippingMethod: 'free' },
      resolveStoreSettings(store),
    );
    expect(!free.ok && free.error.description).toBe(
      STORE_SETTINGS_MESSAGES.zoneMethodOff('Free', 'Germany'),
    );
  });
});

describe('the zones as a merchant sends them', () => {
  const messagesOf = (input: unknown) => {
    const result = v.safeParse(ShippingZonesSchema, input);
    return result.success ? [] : result.issues.map((issue) => issue.message);
  };

  it('accepts zones, upper-casing and de-duplicating their countries', () => {
    const parsed = v.parse(ShippingZonesSchema, [
      { ...store.shippingZones[0], countries: [' de', 'AT', 'at'] },
    ]);
    expect(parsed[0]?.countries).toEqual(['DE', 'AT']);
  });

  it('refuses a country in two zones, unknown codes, empty zones and too many zones', () => {
    const de = store.shippingZones[0];
    expect(messagesOf([de, { ...de, name: 'DACH', countries: ['AT', 'DE'] }])).toEqual([
      STORE_SETTINGS_MESSAGES.countryTwice('DE', 'Germany', 'DACH'),
    ]);
    expect(messagesOf([{ ...de, countries: ['XX'] }])).toEqual([
      STORE_SETTINGS_MESSAGES.zoneCountry,
    ]);
    expect(messagesOf([{ ...de, countries: [] }])).toEqual([
      STORE_SETTINGS_MESSAGES.zoneNoCountries,
    ]);
    expect(messagesOf([{ ...de, name: ' ' }])).toEqual([STORE_SETTINGS_MESSAGES.zoneName]);
    expect(messagesOf([de, { ...de, countries: ['AT'] }])).toEqual([
      STORE_SETTINGS_MESSAGES.zoneNameTwice('Germany'),
    ]);
    expect(messagesOf([{ ...de, name: 'rest of world' }])).toEqual([
      STORE_SETTINGS_MESSAGES.zoneNameTwice('rest of world'),
    ]);
    expect(messagesOf([{ ...de, taxRateBps: 5001 }])).toEqual([STORE_SETTINGS_MESSAGES.taxRate]);
    const many = Array.from({ length: STORE_SETTINGS_LIMITS.maxZones + 1 }, (_, i) => ({
      ...de,
      name: `Zone ${i}`,
      countries: [COUNTRY_CODES[i]],
    }));
    expect(messagesOf(many)).toEqual([STORE_SETTINGS_MESSAGES.tooManyZones]);
    expect(messagesOf(many.slice(1))).toEqual([]);
    expect(messagesOf([{ ...de, name: 'x'.repeat(61) }])).toEqual([
      'Zone name must be at most 60 characters',
    ]);
  });
});

describe('the zones editor', () => {
  const zone = (name: string, countries: string) => ({
    ...zoneFormValues({
      name,
      countries: [],
      taxRateBps: 0,
      shipping: resolveStoreSettings({}).shipping,
    }),
    countries,
    taxPercent: '19',
  });
  const parse = (zones: ReturnType<typeof zone>[]) =>
    v.safeParse(ShippingZonesFormSchema, { pricesIncludeTax: true, zones });

  it('turns typed countries and percent into the body the API takes, and back', () => {
    const parsed = parse([zone('EU', 'de, at;FR  de')]);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const body = shippingZonesFromForm(parsed.output);
    expect(body.pricesIncludeTax).toBe(true);
    expect(body.shippingZones[0]).toMatchObject({
      name: 'EU',
      countries: ['DE', 'AT', 'FR'],
      taxRateBps: 1900,
    });
    expect(v.safeParse(ShippingZonesSchema, body.shippingZones).success).toBe(true);
    const again = shippingZonesFormValues(body);
    expect(again.zones[0]).toMatchObject({ countries: 'DE, AT, FR', taxPercent: '19' });
  });

  it('puts messages on the field, and a country in two zones on the form', () => {
    const bad = parse([zone('EU', 'DE, XX')]);
    expect(!bad.success && bad.issues.map((i) => i.message)).toEqual([
      STORE_SETTINGS_MESSAGES.zoneCountry,
    ]);
    const empty = parse([zone('EU', ' ')]);
    expect(!empty.success && empty.issues.map((i) => i.message)).toEqual([
      STORE_SETTINGS_MESSAGES.zoneNoCountries,
    ]);
    const twice = parse([zone('EU', 'DE, AT'), zone('DACH', 'CH, DE')]);
    expect(!twice.success && twice.issues.map((i) => [i.message, i.path?.length ?? 0])).toEqual([
      [STORE_SETTINGS_MESSAGES.countryTwice('DE', 'EU', 'DACH'), 0],
    ]);
  });
});
