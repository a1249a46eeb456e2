import { describe, expect, it } from 'vitest';
import { contrastRatio, parseHexColour, readableTextColour, textOn } from './contrast.ts';

describe('contrastRatio', () => {
  it('matches WCAG figures', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBeCloseTo(1, 5);
    // The measurement: the payment amount in #10b981 on white.
    expect(contrastRatio('#10b981', '#ffffff')).toBeCloseTo(2.54, 2);
    expect(parseHexColour('#abc')).toEqual([170, 187, 204]);
    expect(parseHexColour('red')).toBeUndefined();
  });
});

describe('readableTextColour', () => {
  it('darkens #10b981 on white to at least 4.5:1, keeping its hue', () => {
    const text = readableTextColour('#10b981', ['#ffffff']);
    expect(contrastRatio(text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(text, '#ffffff')).toBeLessThan(5);
    const [r, g, b] = parseHexColour(text) ?? [0, 0, 0];
    expect(g).toBeGreaterThan(b);
    expect(b).toBeGreaterThan(r);
  });

  it('meets the ratio on every background given', () => {
    const backgrounds = ['#ffffff', '#f8fafc', '#f1f5f9'];
    for (const colour of ['#06b6d4', '#fbbf24', '#db2777', '#ffffff', '#abc']) {
      const text = readableTextColour(colour, backgrounds);
      for (const bg of backgrounds) expect(contrastRatio(text, bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('lightens a dark colour on dark backgrounds and leaves readable colours alone', () => {
    const dark = ['#0b1020', '#131a2e', '#1a2340'];
    const text = readableTextColour('#1e3a8a', dark);
    for (const bg of dark) expect(contrastRatio(text, bg)).toBeGreaterThanOrEqual(4.5);
    expect(readableTextColour('#0f766e', ['#ffffff'])).toBe('#0f766e');
    expect(readableTextColour('#06b6d4', dark)).toBe('#06b6d4');
    expect(readableTextColour('not a colour', dark)).toBe('not a colour');
  });
});

describe('textOn', () => {
  it('keeps white on dark buttons and turns dark on light ones', () => {
    expect(textOn('#0f766e')).toBe('#ffffff');
    expect(textOn('#10b981')).toBe('#0f172a');
    expect(contrastRatio(textOn('#10b981'), '#10b981')).toBeGreaterThanOrEqual(4.5);
  });
});
