// The installed-app basics: 404 page, web manifest, and offline start from the precache.

import { expect, test } from '@playwright/test';
import { accessibilityViolations } from './support/accessibility.ts';
import { expectNoBase } from './support/chain-names.ts';
import { snap } from './support/screenshots.ts';

const HERO = 'Accept crypto payments in 60 seconds';

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HERO);
});

test('the landing page leads merchants in: sign in, or start selling', async ({ page }) => {
  for (const [size, viewport] of Object.entries({
    phone: { width: 390, height: 844 },
    laptop: { width: 1280, height: 800 },
  })) {
    await page.setViewportSize(viewport);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Start selling' })).toBeVisible();
    // Nothing of the header is cut off or scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await snap(page, `landing-nav-${size}`);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Sign in' })
    .click();
  await expect(page).toHaveURL('/sign-in');
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Start selling' })
    .click();
  await expect(page).toHaveURL('/sign-up');
});

test("the public pages name the deployment's chain and this year, and claim no custody they lack", async ({
  page,
}) => {
  for (const path of [
    '/',
    '/terms-of-service',
    '/universal-checkout-docs',
    '/payment-link-builder',
  ]) {
    await page.goto(path);
    await expect(page.getByText(/Local chain 31337/).first()).toBeVisible();
    await expectNoBase(page);
  }
  await page.goto('/');
  const footer = page.locator('footer');
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  await expect(footer).not.toContainText('non-custodial');
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
