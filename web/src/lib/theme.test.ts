import { afterEach, describe, expect, it } from 'vitest';
import { applyStoreTheme } from './theme.ts';

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
    expect([variable('--primary'), variable('--secondary'), variable('--accent')]).toEqual([
      '#0f766e',
      '#7c3aed',
      '#db2777',
    ]);
    reset();
    expect(root.className).toBe('dark');
    expect(variable('--primary')).toBe('');
  });

  it('uses the default dark theme and colours for missing or unsafe values', () => {
    applyStoreTheme({ theme: null, primaryColor: 'red;background:url(x)', accentColor: null });
    expect(root.classList.contains('dark')).toBe(true);
    expect(variable('--primary')).toBe('#6366f1');
    expect(variable('--accent')).toBe('#06b6d4');
  });
});
