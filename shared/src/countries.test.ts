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

  it('names the country elsewhere and skips an empty region', () => {
    expect(
      addressTailLines({ city: 'Berlin', state: '', zipCode: '10115', country: 'DE' }),
    ).toEqual(['Berlin, 10115', 'Germany']);
    expect(
      addressTailLines({
        city: 'London',
        state: 'Greater London',
        zipCode: 'SW1A 1AA',
        country: 'GB',
      }),
    ).toEqual(['London, Greater London SW1A 1AA', 'United Kingdom']);
  });
});
