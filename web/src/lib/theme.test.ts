import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_COLORS } from '@store/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { contrastRatio } from './contrast.ts';
import { applyStoreTheme, strongPrimary, THEME_BACKGROUNDS, themeVariables } from './theme.ts';

const root = document.documentElement;
const variable = (name: string) => root.style.getPropertyValue(name);

afterEach(() => {
  root.className = '';
  root.removeAttribute('style');
});

describe('store theming', () => {
  it('applies the store colours and light class, and restores the page after', () => {
    root.className = 'dark';
    const reset = applyStoreTheme({
      theme: 'light',
      primaryColor: '#0f766e',
      secondaryColor: '#7c3aed',
      accentColor: '#db2777',
    });
    expect(root.classList.contains('light')).toBe(true);
    expect(root.classList.contains('dark')).toBe(false);
    // Note: #db2777 reads at 4.3:1 on the light theme's grey surface; the accent is darkened.
    expect([variable('--primary'), variable('--secondary'), variable('--accent')]).toEqual([
      '#0f766e',
      '#7c3aed',
      '#d22572',
    ]);
    expect(variable('--on-primary')).toBe('#ffffff');
    reset();
    expect(root.className).toBe('dark');
    expect(variable('--primary')).toBe('');
    expect(variable('--on-primary')).toBe('');
  });

  it('uses the default dark theme and colours for missing or unsafe values', () => {
    applyStoreTheme({ theme: null, primaryColor: 'red;background:url(x)', accentColor: null });
    expect(root.classList.contains('dark')).toBe(true);
    expect(variable('--primary')).toBe('#6366f1');
    expect(variable('--accent')).toBe('#06b6d4');
  });

  it('makes merchant colours readable as text (WCAG AA 4.5:1) in both themes', () => {
    const light = themeVariables({
      theme: 'light',
      primaryColor: '#10b981',
      accentColor: '#10b981',
    });
    expect(contrastRatio('#10b981', '#ffffff')).toBeLessThan(3);
    for (const bg of THEME_BACKGROUNDS.light) {
      expect(contrastRatio(light['--accent'] ?? '', bg)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(light['--on-primary'] ?? '', '#10b981')).toBeGreaterThanOrEqual(4.5);
    const dark = themeVariables({ theme: 'dark', accentColor: '#1e3a8a' });
    for (const bg of THEME_BACKGROUNDS.dark) {
      expect(contrastRatio(dark['--accent'] ?? '', bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('puts text on a primary colour only where it reads at 4.5:1 (the default indigo too)', () => {
    expect(contrastRatio('#ffffff', DEFAULT_COLORS.primary)).toBeLessThan(4.5);
    for (const primary of [DEFAULT_COLORS.primary, '#10b981', '#0f766e', '#fde047', '#8b5cf6']) {
      const vars = themeVariables({ primaryColor: primary });
      const strong = vars['--primary-strong'] ?? '';
      expect(contrastRatio(vars['--on-primary'] ?? '', strong)).toBeGreaterThanOrEqual(4.5);
    }
    // A colour that reads already is kept as the merchant chose it.
    expect(strongPrimary('#0f766e')).toBe('#0f766e');
    // The stylesheet's default is the same colour (the app's own pages, before any store theme).
    const css = readFileSync(join(__dirname, '../styles/base.css'), 'utf8');
    expect(css).toContain(`--primary-strong: ${strongPrimary(DEFAULT_COLORS.primary)};`);
  });
});
