import { describe, expect, it } from 'vitest';
import {
  addressTailLines,
  COUNTRY_CODES,
  countryName,
  countryOptions,
  DEFAULT_COUNTRY,
  isCountryCode,
  NON_US_COUNTRY_CODES,
} from './countries.ts';

describe('countries', () => {
  it('lists the 249 ISO 3166-1 alpha-2 codes once each, sorted', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES].sort()).toEqual([...COUNTRY_CODES]);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('defaults to the United States, which the other codes leave out', () => {
    expect(DEFAULT_COUNTRY).toBe('US');
    expect(NON_US_COUNTRY_CODES).toHaveLength(248);
    expect(NON_US_COUNTRY_CODES).not.toContain('US');
  });

  it('knows codes exactly', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    expect(isCountryCode('XX')).toBe(false);
    expect(isCountryCode('UK')).toBe(false);
  });

  it('names countries with Intl.DisplayNames, the code as fallback', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('US')).toBe('United States');
    expect(countryName('DE', 'de')).toBe('Deutschland');
    expect(countryName('XX')).toBe('XX');
    expect(countryName('not a code')).toBe('not a code');
  });

  it('offers the United States first, then every other country by name', () => {
    const options = countryOptions();
    expect(options).toHaveLength(249);
    expect(options[0]).toEqual({ value: 'US', label: 'United States' });
    const rest = options.slice(1).map((option) => option.label);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    expect(options.find((option) => option.value === 'DE')?.label).toBe('Germany');
  });
});

describe('addressTailLines', () => {
  it('keeps the US line and names no country for it', () => {
    const us = { city: 'Springfield', state: 'IL', zipCode: '62701' };
    expect(addressTailLines(us)).toEqual(['Springfield, IL 62701']);
    expect(addressTailLines({ ...us, country: 'US' })).toEqual(['Springfield, IL 62701']);
  });

  it("writes each country's postal order: German postcode first, British postcode on its own line", () => {
    expect(
      addressTailLines({ city: 'Berlin', state: '', zipCode: '10117', country: 'DE' }),
    ).toEqual(['10117 Berlin', 'Germany']);
    expect(addressTailLines({ city: 'Paris', state: '', zipCode: '75001', country: 'FR' })).toEqual(
      ['75001 Paris', 'France'],
    );
    expect(
      addressTailLines({
        city: 'London',
        state: 'Greater London',
        zipCode: 'SW1A 1AA',
        country: 'GB',
      }),
    ).toEqual(['London', 'SW1A 1AA', 'Greater London', 'United Kingdom']);
  });

  it("keeps a part the country's format leaves out", () => {
    const lines = addressTailLines({
      city: 'Osaka',
      state: 'Osaka',
      zipCode: '530-0001',
      country: 'JP',
    });
    expect(lines.join(' ')).toContain('Osaka');
    expect(lines.join(' ')).toContain('530-0001');
    expect(lines.at(-1)).toBe('Japan');
  });
});
