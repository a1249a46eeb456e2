// The built app runs under its Content-Security-Policy (the API's page headers; the e2e stack's
// API serves the built app): no violation on the landing page, a store, its checkout and payment
// page, the universal checkout's link builder and docs, the sign-in page and the admin. A
// violation shows twice: the console's "Content Security Policy" message and the page's
// securitypolicyviolation event; a planted inline script proves both are listened to.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';

const HERO = 'Accept crypto payments in 60 seconds';

/** Collects the page's policy violations, from its first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('reportCspViolation', (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (line: string) => void })
        .reportCspViolation;
      report(`event: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return violations;
}

test('the app runs under its Content-Security-Policy without a violation', async ({ page }) => {
  const stack = readStackInfo();
  const violations = await watchViolations(page);

  const landing = await page.goto('/');
  const policy = landing?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(landing?.headers()['x-content-type-options']).toBe('nosniff');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HERO);

  // A store, its product page (styles set from the store's theme), checkout and payment page
  // (the QR code is a data: image).
  const slug = stack.store.slug;
  // The store page's HTML (the shell with its early hints) carries the same policy.
  const storePage = await page.goto(`/store/${slug}`);
  expect(storePage?.headers()['content-security-policy']).toBe(policy);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(stack.store.name);
  await page.getByRole('button', { name: 'Add to Cart: Aurora Hoodie' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');
  await page.getByRole('link', { name: 'View Aurora Hoodie' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Aurora Hoodie');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(`/store/${slug}/checkout`);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('555-0100');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('1600 Pennsylvania Ave NW');
  await page.getByLabel('City').fill('Washington');
  await page.getByLabel('State').selectOption('DC');
  await page.getByLabel('ZIP code').fill('20500');
  await page.getByRole('radio', { name: /Standard/ }).check();
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/store/${slug}/payment/[0-9a-f-]{36}$`));
  const qr = page.getByRole('img', { name: /QR code of the payment address/ });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  await page.goto('/payment-link-builder');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/universal-checkout-docs');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The sign-in page, then the admin of a merchant with a store and a product.
  await page.goto('/sign-in');
  await expect(page.getByLabel('Password')).toBeVisible();
  const username = await signUp(page.request, unique('csp'));
  const store = await createStore(page.request, `CSP Shop ${username.split('-')[1]}`);
  await createProduct(page.request, store.id, { title: 'Lamp', priceUsdc: '20.00', inventory: 2 });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');
  await expect(page.getByText(store.name).first()).toBeVisible();
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);

  // Give late reports (images, the service worker's registration) a moment to arrive.
  await page.waitForLoadState('networkidle');
  expect(violations).toEqual([]);

  // The watch works: an inline script is refused and reported both ways.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.planted = true';
    document.head.append(script);
  });
  await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
  expect(violations.some((line) => line.startsWith('event: script-src-elem'))).toBe(true);
  expect(violations.some((line) => line.startsWith('console:'))).toBe(true);
  expect(await page.evaluate(() => 'planted' in window)).toBe(false);
});
