// A visited store opens offline with its products and cart (IndexedDB + service worker), and
// each store links its own installable web manifest.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { snap } from './support/screenshots.ts';
import { readStackInfo } from './support/stack-info.ts';

test('a visited store reloads offline with its products and cart', async ({ page, context }) => {
  const { store } = readStackInfo();
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('article')).toHaveCount(3);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.getByRole('button', { name: 'Add to Cart: Sticker Pack' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');
  await expect(page.getByTestId('cart-total')).toHaveText('4.99 USDC');
  await snap(page, 'offline-1-store');
  // A product page opens offline too, from the cached catalogue, and says the network is gone.
  await page.getByRole('link', { name: 'View Ceramic Mug' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ceramic Mug');
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
  await context.setOffline(false);
});

test('each store has its own installable web manifest', async ({ page }) => {
  const { store } = readStackInfo();
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  const link = page.locator('link[rel="manifest"]');
  await expect(link).toHaveAttribute('href', /^blob:/);
  const manifest = await page.evaluate(async () => {
    const href = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href ?? '';
    return (await fetch(href)).json();
  });
  const origin = new URL(page.url()).origin;
  expect(manifest).toMatchObject({
    name: 'Aurora Goods',
    short_name: 'Aurora Goods',
    start_url: `${origin}/store/${store.slug}/`,
    scope: `${origin}/store/${store.slug}/`,
    display: 'standalone',
    theme_color: '#0f766e',
  });
  expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual([
    '192x192',
    '512x512',
    '512x512',
  ]);
  expect(manifest.icons[0].src).toMatch(/^data:image\/png;base64,/);

  // The start URL opens the storefront inside the scope.
  await page.goto(`/store/${store.slug}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  // Leaving the store (in-app, from the product page's breadcrumb) puts the app's manifest back.
  await page.getByRole('link', { name: 'View Ceramic Mug' }).click();
  await page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('link', { name: 'Home' })
    .click();
  await expect(page).toHaveURL('/');
  await expect(link).toHaveAttribute('href', '/manifest.webmanifest');
});

test('Chrome reads the store manifest without errors and finds the store installable', async ({
  baseURL,
}, testInfo) => {
  const { store } = readStackInfo();
  // Note: Playwright's usual contexts are incognito, where Chrome never offers to install; a
  // persistent profile gets Chrome's full installability check.
  const profile = await mkdtemp(join(tmpdir(), 'storefront-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  });
  try {
    const page = await context.newPage();
    await page.goto(`/store/${store.slug}`);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /^blob:/);
    await page.evaluate(() => navigator.serviceWorker.ready);
    // The service worker must control the page for Chrome to call it installable.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /^blob:/);
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(async () => {
        const parsed = await cdp.send('Page.getAppManifest');
        return { errors: parsed.errors, name: JSON.parse(parsed.data ?? '{}').name };
      })
      .toEqual({ errors: [], name: 'Aurora Goods' });
    await expect
      .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors)
      .toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
