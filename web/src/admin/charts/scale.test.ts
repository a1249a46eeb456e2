import { describe, expect, it } from 'vitest';
import { labelledDays, niceScale, shortDay, shortNumber } from './scale.ts';

describe('niceScale', () => {
  it('rounds the top up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceScale(10.8)).toEqual({ max: 15, ticks: [0, 5, 10, 15] });
    expect(niceScale(3)).toEqual({ max: 3, ticks: [0, 1, 2, 3] });
    expect(niceScale(0.07)).toEqual({ max: 0.075, ticks: [0, 0.025, 0.05, 0.075] });
    expect(niceScale(1234)).toEqual({ max: 1500, ticks: [0, 500, 1000, 1500] });
  });
  it('gives an empty series a 0..1 scale', () => {
    expect(niceScale(0)).toEqual({ max: 1, ticks: [0, 1] });
  });
});

describe('labelledDays', () => {
  it('labels every day when there is room, fewer on a phone, always the last', () => {
    expect(labelledDays(7, 700)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const phone = labelledDays(30, 320);
    expect(phone.at(-1)).toBe(29);
    expect(phone.length).toBeLessThanOrEqual(6);
    expect(labelledDays(0, 300)).toEqual([]);
  });
});

describe('texts', () => {
  it('names UTC days and shortens axis numbers', () => {
    expect(shortDay('2026-11-03')).toBe('Nov 3');
    expect(shortNumber(1250)).toBe('1,250');
    expect(shortNumber(12_500)).toBe('12.5k');
    expect(shortNumber(3_400_000)).toBe('3.4M');
  });
});
