import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  isHttpsUrl,
  MarkShippedSchema,
  OrderListFiltersSchema,
  SHIPMENT_LIMITS,
  trackingLinkOf,
} from './fulfilment.ts';

const messages = (input: unknown) =>
  v.safeParse(MarkShippedSchema, input).issues?.map((issue) => issue.message) ?? [];

describe('MarkShippedSchema', () => {
  it('trims carrier and tracking and treats an empty tracking URL as none', () => {
    expect(
      v.parse(MarkShippedSchema, {
        carrier: ' UPS ',
        trackingNumber: ' 1Z 999 ',
        trackingUrl: ' ',
      }),
    ).toEqual({ carrier: 'UPS', trackingNumber: '1Z 999', trackingUrl: undefined });
    expect(
      v.parse(MarkShippedSchema, {
        carrier: 'DHL',
        trackingNumber: 'JD0146',
        trackingUrl: 'https://dhl.com/t?n=JD0146',
      }).trackingUrl,
    ).toBe('https://dhl.com/t?n=JD0146');
  });

  it('requires carrier and tracking number with their messages', () => {
    expect(messages({})).toEqual(['Carrier is required', 'Tracking number is required']);
    expect(messages({ carrier: '  ', trackingNumber: '' })).toEqual([
      'Carrier is required',
      'Tracking number is required',
    ]);
  });

  it('refuses a tracking URL that is not https, and odd tracking numbers', () => {
    for (const url of [
      'http://ups.com/t',
      'javascript:alert(1)',
      'ups.com/t',
      'https://u:p@ups.com',
    ])
      expect(messages({ carrier: 'UPS', trackingNumber: '1Z', trackingUrl: url })).toEqual([
        'Tracking URL must be an https:// address',
      ]);
    expect(messages({ carrier: 'UPS', trackingNumber: '<script>' })).toEqual([
      'Tracking number may contain only letters, digits, spaces, hyphens, dots and slashes',
    ]);
  });

  it('caps every field', () => {
    expect(
      messages({ carrier: 'C'.repeat(SHIPMENT_LIMITS.carrier + 1), trackingNumber: '1' }),
    ).toEqual(['Carrier must be at most 60 characters']);
    expect(messages({ carrier: 'C', trackingNumber: '1'.repeat(101) })).toEqual([
      'Tracking number must be at most 100 characters',
    ]);
    const url = `https://t.example/${'a'.repeat(SHIPMENT_LIMITS.trackingUrl)}`;
    expect(messages({ carrier: 'C', trackingNumber: '1', trackingUrl: url })).toEqual([
      'Tracking URL must be at most 500 characters',
    ]);
  });
});

describe('tracking links', () => {
  it('links only https URLs', () => {
    expect(isHttpsUrl('https://ups.com/t')).toBe(true);
    expect(isHttpsUrl('http://ups.com/t')).toBe(false);
    expect(trackingLinkOf({ trackingUrl: 'javascript:alert(1)' })).toBeNull();
    expect(trackingLinkOf({ trackingUrl: null })).toBeNull();
    expect(trackingLinkOf({ trackingUrl: 'https://ups.com/t' })).toBe('https://ups.com/t');
  });
});

describe('OrderListFiltersSchema', () => {
  it('accepts the filters and refuses unknown values and bad days', () => {
    expect(
      v.parse(OrderListFiltersSchema, {
        q: ' ada@example.com ',
        status: 'paid',
        exception: 'underpaid',
        from: '2026-01-01',
        to: '2026-01-31',
      }),
    ).toMatchObject({ q: 'ada@example.com', exception: 'underpaid' });
    expect(v.is(OrderListFiltersSchema, { exception: 'lost' })).toBe(false);
    expect(v.is(OrderListFiltersSchema, { from: '2026-13-45' })).toBe(false);
    expect(v.is(OrderListFiltersSchema, { from: '01/02/2026' })).toBe(false);
    expect(v.is(OrderListFiltersSchema, { q: 'x'.repeat(201) })).toBe(false);
  });
});
