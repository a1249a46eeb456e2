import { describe, expect, it } from 'vitest';
import { isValidSlug, slugify } from './slug.ts';

describe('slugify (admin dialog rule)', () => {
  it.each([
    ['My Cool Store', 'my-cool-store'],
    ["Bob's Bikes & Boards!", 'bobs-bikes-boards'],
    ['  Leading and trailing  ', 'leading-and-trailing'],
    ['a -- b', 'a-b'],
    ['---x---', 'x'],
    ['Café 24/7', 'caf-247'],
    ['UPPER lower 123', 'upper-lower-123'],
    ['!!!', ''],
    ['', ''],
  ])('%j -> %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('always yields a valid slug for a name with any letter or digit', () => {
    for (const name of ['Hello World', ' x ', 'Ünïcode 1', 'a_b']) {
      expect(isValidSlug(slugify(name))).toBe(true);
    }
  });
});

describe('isValidSlug', () => {
  it('accepts lowercase letters, digits and hyphens', () => {
    expect(isValidSlug('my-store-1')).toBe(true);
  });

  it.each(['', 'My-Store', 'my store', 'my_store', 'störe', 'a/b'])('rejects %j', (slug) => {
    expect(isValidSlug(slug)).toBe(false);
  });
});
