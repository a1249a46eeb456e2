// The integration docs tell an integrator what a webhook proves: a hand-made link's payload says
// `signed: false`, and the steps before fulfilling check the payee and the amount against the
// integrator's own record; deliveries are at least once.

import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { snap } from './support/screenshots.ts';

const shot = (name: string) => fileURLToPath(new URL(`./screenshots/${name}.png`, import.meta.url));

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
]) {
  test(`the docs show the checks before fulfilling (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/universal-checkout-docs');
    const checks = page.getByRole('heading', {
      name: 'Before you fulfil: check the payee and the amount',
    });
    await checks.scrollIntoViewIfNeeded();
    await expect(checks).toBeVisible();
    const section = page.locator('section', { has: checks });
    await expect(section).toContainText('signed is false for a link made by hand');
    await expect(section).toContainText('is your own payout address');
    await expect(section).toContainText('not the one in the payload');
    await expect(section.locator('code', { hasText: 'paysForMyOrder' })).toBeVisible();
    await expect(section).toContainText('at least once');
    const events = page.locator('.docs-events');
    await expect(events).toContainText('order.payment_reversed');
    await expect(events).toContainText('order.forwarded');
    // Each event opens to its example payload.
    await events.getByText('order.paid', { exact: true }).click();
    const paid = events.locator('pre').filter({ hasText: '"type": "order.paid"' });
    await expect(paid).toBeVisible();
    await expect(paid).toContainText('"signed": false');
    await snap(page, `docs-webhook-checks-${viewport.name}`);
    // What a reader sees there: the events, then the checks before fulfilling.
    await events.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`docs-events-${viewport.name}`) });
    await checks.evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: shot(`docs-checks-${viewport.name}`) });
  });
}
