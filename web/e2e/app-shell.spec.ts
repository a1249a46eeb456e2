// The installed-app basics: 404 page, web manifest, and offline start from the precache.
import { expect, test } from '@playwright/test';

const HERO = 'Accept crypto payments in 60 seconds';

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HERO);
});

test('the web manifest is linked and served', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');

  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);
  const manifest = await response.json();
  expect(manifest).toMatchObject({
    name: 'USDC Storefront',
    theme_color: '#6366f1',
    start_url: '/',
    display: 'standalone',
  });
  expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toContain('512x512');
});

test('the app starts offline once the service worker is installed', async ({ page, context }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HERO);
  const scope = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.scope;
  });
  expect(scope).toBe(`${new URL(page.url()).origin}/`);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HERO);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // A deep link that was never visited is served the precached shell too.
  await page.goto('/terms-of-service');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
  await context.setOffline(false);
});
