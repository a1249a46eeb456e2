import { afterEach, describe, expect, it } from 'vitest';
import { linkStoreManifest, storeManifestUrl } from './store-manifest.ts';

const links = () =>
  [...document.head.querySelectorAll('link')].map((link) => [link.rel, link.getAttribute('href')]);

afterEach(() => {
  document.head.innerHTML = '';
});

describe('per-store web manifest', () => {
  it("links the store's manifest on the server and puts the app's back after", () => {
    document.head.innerHTML =
      '<link rel="manifest" href="/manifest.webmanifest"><link rel="apple-touch-icon" href="/apple-touch-icon-180x180.png">';
    const restore = linkStoreManifest('aurora-goods');
    expect(links()).toEqual([
      ['manifest', '/store/aurora-goods/manifest.webmanifest'],
      ['apple-touch-icon', '/store/aurora-goods/icon-maskable-512.png'],
    ]);
    restore();
    expect(links()).toEqual([
      ['manifest', '/manifest.webmanifest'],
      ['apple-touch-icon', '/apple-touch-icon-180x180.png'],
    ]);
  });

  it('adds the links when the page has none (the dev server) and removes them after', () => {
    const restore = linkStoreManifest('aurora-goods');
    expect(links().map(([rel]) => rel)).toEqual(['manifest', 'apple-touch-icon']);
    restore();
    expect(links()).toEqual([]);
  });

  it('never lets a slug leave its path segment', () => {
    expect(storeManifestUrl('a/../b')).toBe('/store/a%2F..%2Fb/manifest.webmanifest');
  });
});
