import { describe, expect, it } from 'vitest';
import { buildStoreManifest } from './store-manifest.ts';

const store = {
  name: 'Aurora Goods and Curiosities',
  slug: 'aurora-goods',
  description: 'Cosy things',
  logoUrl: '🌌',
  theme: 'light' as const,
  primaryColor: '#0f766e',
};

describe('per-store web manifest', () => {
  it('installs the store as its own app under /store/{slug}/', () => {
    const manifest = buildStoreManifest(store, 'https://pay.example', {
      192: 'data:image/png;base64,AAA',
    });
    expect(manifest).toMatchObject({
      id: '/store/aurora-goods/',
      name: 'Aurora Goods and Curiosities',
      short_name: 'Aurora Goods',
      start_url: 'https://pay.example/store/aurora-goods/',
      scope: 'https://pay.example/store/aurora-goods/',
      display: 'standalone',
      theme_color: '#0f766e',
      background_color: '#f8fafc',
    });
    expect(manifest.icons).toEqual([
      { src: 'data:image/png;base64,AAA', sizes: '192x192', type: 'image/png' },
      { src: 'https://pay.example/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
      {
        src: 'https://pay.example/pwa-512x512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
    ]);
  });

  it('falls back to the default colour when the store colour is not a hex colour', () => {
    expect(buildStoreManifest({ ...store, primaryColor: 'blue' }, 'https://x').theme_color).toBe(
      '#6366f1',
    );
  });
});
