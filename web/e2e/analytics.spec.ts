// Journey: a merchant's money at a glance. Two orders of a new store are paid on the local chain
// and forwarded; the store page shows the 30-day figures from the analytics views above two SVG
// bar charts (30 bars each, today's bar the day's USDC and orders), with the numbers as a table;
// the Accounting tab downloads the store's money movements as CSV (each payment in, each leg out;
// received = net + fee to the base unit); the dashboard charts all stores. Screenshots at 390 and
// 1280 px.
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { formatUsdcFull, parseUsdc, splitFee } from '@store/shared';
import {
  createProduct,
  createStore,
  payOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { expectNoBase } from './support/chain-names.ts';
import { snap } from './support/screenshots.ts';

const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };

async function snapBoth(page: Page, name: string) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await snap(page, `${name}-${size}`);
  }
}

test('the store page charts 30 days from the analytics views and exports its money movements', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page.request);
  const store = await createStore(page.request, unique('Chart Shop'));
  const product = await createProduct(page.request, store.id, {
    title: 'Linen tote',
    priceUsdc: '12.00',
    inventory: 10,
  });
  const item = { id: product.id, title: 'Linen tote', priceUsdc: '12.00' };
  const first = await placeOrder(page.request, store.id, item);
  const second = await placeOrder(page.request, store.id, item);
  await payOrder(page.request, first, 3);
  await payOrder(page.request, second, 4);
  const received = parseUsdc(first.totalUsdc) + parseUsdc(second.totalUsdc);
  const { merchant, fee } = splitFee(parseUsdc(first.totalUsdc));
  // Forwarded and indexed: the series has the net of both orders.
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/stores/${store.id}/analytics/daily`)).json()).totals
          .merchantNetUsdc,
      { timeout: 60_000 },
    )
    .toBe(((Number(merchant) * 2) / 1e6).toFixed(6));

  await page.setViewportSize(SIZES.laptop);
  await page.goto(`/admin/stores/${store.id}`);
  const revenue = page.getByTestId('chart-revenue');
  const orders = page.getByTestId('chart-orders');
  await expect(revenue.locator('rect.volume-bar')).toHaveCount(30);
  await expect(orders.locator('rect.volume-bar')).toHaveCount(30);
  const today = new Date().toISOString().slice(0, 10);
  await expect(revenue.locator(`rect[data-day="${today}"]`)).toHaveAttribute(
    'data-value',
    String(Number(received) / 1e6),
  );
  await expect(orders.locator(`rect[data-day="${today}"]`)).toHaveAttribute('data-value', '2');
  // Days without money have no bar height.
  const empty = revenue.locator('rect.volume-bar[data-value="0"]');
  await expect(empty).toHaveCount(29);
  // The figures above: paid, orders paid, received (forwarded), refunded, net to the wallet, fees,
  // exact as the payouts page shows them.
  const usdc = (units: bigint) => `${(Number(units) / 1e6).toFixed(2)} USDC`;
  const exact = (units: bigint) => `${formatUsdcFull(units).replace(/(\.\d\d\d*?)0+$/, '$1')} USDC`;
  await expect(page.getByTestId('volume-Paid')).toHaveText(exact(received));
  await expect(page.getByTestId('volume-Orders paid')).toHaveText('2');
  await expect(page.getByTestId('volume-Received')).toHaveText(exact(merchant * 2n));
  await expect(page.getByTestId('volume-Refunded')).toHaveText('0.00 USDC');
  await expect(page.getByTestId('volume-Net to your wallet')).toHaveText(exact(merchant * 2n));
  await expect(page.getByTestId('volume-Fees (2%)')).toHaveText(exact(fee * 2n));
  // Screen readers get a name and a description, and the numbers as a table.
  await expect(page.getByRole('img', { name: /USDC paid per day/ })).toBeVisible();
  await page.getByText('Show the numbers as a table').click();
  await expect(page.locator('.volume-table tbody tr')).toHaveCount(30);
  await snapBoth(page, 'analytics-store');
  // The open table (seven columns, scrolled in its focusable box on a phone): no WCAG 2.1 AA
  // violation at either size.
  for (const viewport of Object.values(SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page, '.volume-charts')).toEqual([]);
  }
  // On a phone the chart fits the screen (no horizontal scroll) with fewer day labels.
  await page.setViewportSize(SIZES.phone);
  await expect(revenue.locator('rect.volume-bar')).toHaveCount(30);
  const box = await revenue.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
  expect(await revenue.locator('text.volume-day').count()).toBeLessThanOrEqual(7);

  // Accounting: the CSV of today's money movements.
  await page.setViewportSize(SIZES.laptop);
  await page.getByRole('tab', { name: 'Accounting' }).click();
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await snapBoth(page, 'analytics-accounting');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(
    `${store.slug}-money-movements-${today}-to-${today}.csv`,
  );
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\r\n');
  const rows = lines.slice(1).map((line) => line.split(','));
  const sum = (type: string) =>
    rows.filter((r) => r[1] === type).reduce((total, r) => total + BigInt(r[10] ?? '0'), 0n);
  expect(rows.filter((r) => r[1] === 'payment')).toHaveLength(2);
  expect(sum('payment')).toBe(received);
  expect(sum('merchant') + sum('fee')).toBe(received);
  // A range the wrong way round is refused before any download.
  await page.getByLabel('From', { exact: true }).fill('2026-12-31');
  await page.getByLabel('To', { exact: true }).fill('2026-01-01');
  await expect(page.getByRole('alert')).toContainText('from must be on or before to');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();

  // The dashboard charts every store of the merchant.
  await page.goto('/admin');
  await expect(page.getByTestId('chart-revenue').locator('rect.volume-bar')).toHaveCount(30);
  await expect(page.getByTestId('volume-Orders paid')).toHaveText('2');
  // The stat card's revenue is the charts' "Paid" (one definition), in USDC.
  await expect(page.getByTestId('stat-Total Revenue')).toHaveText(usdc(received));
  await expect(page.getByTestId('volume-Paid')).toHaveText(exact(received));
  await expectNoBase(page);
  await snapBoth(page, 'analytics-dashboard');
});
