// Journey: what reached the payout wallet. Two orders of a new store are paid on the local chain and
// forwarded, and the merchant refunds part of one from the payout wallet; the Payouts page (from
// the admin navigation) shows today's card with both payouts and the refund, each with its
// transaction, and the totals: received (the merchant's 98%), refunded, net and fees; the CSV holds
// the same lines. The dashboard before it shows the same received, refunded and net to your wallet
// under the same labels and meanings (MONEY_FIGURES, the one naming of the two pages), and names no
// Base on the local chain. Screenshots of both at 390 and
// 1280 px, with no WCAG 2.1 AA violation at either size.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { formatUsdcFull, parseUsdc, splitFee } from '@store/shared';
import { MONEY_FIGURES } from '@store/shared/analytics';
import { readStackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { getAddress } from 'viem';
import {
  createProduct,
  JOURNEY_SETTINGS,
  payOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { expectNoBase } from './support/chain-names.ts';
import { payUsdc } from './support/pay.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

/** Shown amounts: exact, without zeros past the cents. */
const shown = (units: bigint) => `${formatUsdcFull(units).replace(/(\.\d\d\d*?)0+$/, '$1')} USDC`;

test('the payouts page lists per day what reached the payout wallet, with its transactions and CSV', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const stack = readStackInfo();
  // The payout wallet: a test account, so the merchant can send a refund from it.
  const payout = getAddress(localAccount(9).address);
  const payer = getAddress(localAccount(5).address);
  await signUp(page.request);
  const name = unique('Payout Day Shop');
  const created = await page.request.post('/api/stores', {
    data: {
      name,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      paymentAddress: payout,
      logoUrl: '🕯️',
      ...JOURNEY_SETTINGS,
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(created.status()).toBe(201);
  const store = (await created.json()) as { id: string; slug: string };
  const product = await createProduct(page.request, store.id, {
    title: 'Beeswax candle',
    priceUsdc: '12.00',
    inventory: 10,
  });
  const item = { id: product.id, title: 'Beeswax candle', priceUsdc: '12.00' };
  const first = await placeOrder(page.request, store.id, item);
  const second = await placeOrder(page.request, store.id, item);
  await payOrder(page.request, first, 5);
  await payOrder(page.request, second, 5);
  const payoutsOf = async () =>
    (await (await page.request.get(`/api/stores/${store.id}/payouts`)).json()) as {
      totals: { payouts: number; refunds: number };
    };
  await expect.poll(async () => (await payoutsOf()).totals.payouts, { timeout: 60_000 }).toBe(2);

  // A refund of 2.00 from the payout wallet: the payer confirms the address, the merchant sends it.
  const refund = await page.request.post(`/api/orders/${first.id}/refunds`, {
    data: { amount: '2.00' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(refund.status()).toBe(200);
  const claims = (await (
    await page.request.get(`/api/orders/${first.id}/refund-claims`, {
      headers: { 'x-buyer-token': first.reviewToken },
    })
  ).json()) as { claimPath: string }[];
  const token = String(claims[0]?.claimPath).replace('/refund/', '');
  const claimed = await page.request.post(`/api/refund-claims/${token}`, {
    data: { address: payer },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(claimed.status()).toBe(200);
  const refundHash = await payUsdc(stack, payer, '2.00', 9);
  await expect.poll(async () => (await payoutsOf()).totals.refunds, { timeout: 60_000 }).toBe(1);

  const paid = parseUsdc(first.totalUsdc) + parseUsdc(second.totalUsdc);
  const merchant = splitFee(parseUsdc(first.totalUsdc)).merchant * 2n;
  const fees = paid - merchant;
  const refunded = parseUsdc('2.00');

  // The dashboard: the payouts page's figures under its labels, the refund among them.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.goto('/admin');
  await expect(page.getByTestId('volume-Refunded')).toHaveText(shown(refunded));
  await expect(page.getByTestId('volume-Received')).toHaveText(shown(merchant));
  await expect(page.getByTestId('volume-Net to your wallet')).toHaveText(
    shown(merchant - refunded),
  );
  await expect(page.getByTestId('volume-Paid')).toHaveText(shown(paid));
  await expect(page.getByTestId('volume-Fees (2%)')).toHaveText(shown(fees));
  await expect(page.getByTestId('volume-Orders paid')).toHaveText('2');
  await expect(page.getByTestId('stat-Total Revenue')).toHaveText(shown(paid));
  // What the dashboard says each figure means, by its label.
  const dashboardNotes = Object.fromEntries(
    await page
      .locator('.volume-figure')
      .evaluateAll((figures) =>
        figures.map((figure) => [
          figure.querySelector('dt')?.textContent ?? '',
          figure.querySelector('.volume-note')?.textContent ?? '',
        ]),
      ),
  ) as Record<string, string>;
  await expectNoBase(page);
  await snapBoth(page, 'payouts-dashboard', { noSidewaysScroll: true });
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }

  // From the admin navigation to the page.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Payouts' })
    .click();
  await expect(page).toHaveURL(/\/admin\/payouts/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Store', exact: true }).selectOption({ label: name });

  await expect(page.getByTestId('payouts-Received')).toHaveText(shown(merchant));
  await expect(page.getByTestId('payouts-Refunded')).toHaveText(shown(refunded));
  await expect(page.getByTestId('payouts-Net to your wallet')).toHaveText(
    shown(merchant - refunded),
  );
  await expect(page.getByTestId('payouts-Fees (2%)')).toHaveText(shown(fees));
  // Each figure of the page is named and explained as the dashboard names and explains it.
  for (const figure of [
    MONEY_FIGURES.received,
    MONEY_FIGURES.refunded,
    MONEY_FIGURES.net,
    MONEY_FIGURES.fees,
  ]) {
    const total = page
      .getByRole('region', { name: 'Payout totals' })
      .getByRole('article', { name: figure.label, exact: true });
    await expect(total.getByRole('heading')).toHaveText(figure.label);
    await expect(total).toContainText(figure.note);
    expect(dashboardNotes[figure.label]).toBe(figure.note);
  }
  await expect(
    page.getByRole('article', { name: MONEY_FIGURES.received.label, exact: true }),
  ).toContainText('2 payouts');
  await expect(
    page.getByRole('article', { name: MONEY_FIGURES.refunded.label, exact: true }),
  ).toContainText('1 refund');
  await expect(page.getByTestId('payout-address')).toHaveText(payout);
  const today = new Date().toISOString().slice(0, 10);
  const card = page.locator(`section.payout-day[data-day="${today}"]`);
  await expect(card.getByTestId(`payout-net-${today}`)).toHaveText(shown(merchant - refunded));
  await expect(card.locator('tbody tr')).toHaveCount(3);
  await expect(card.getByRole('row', { name: /Refund from wallet/ })).toContainText(
    refundHash.toLowerCase(),
  );
  await expect(card.getByRole('cell', { name: 'Payout' })).toHaveCount(2);

  await snapBoth(page, 'payouts', { noSidewaysScroll: true });
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }

  // The CSV: the same three lines.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${store.slug}-payouts-.+\\.csv$`));
  const [head = '', ...lines] = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\r\n');
  const columns = head.split(',');
  const rows = lines.map((line) => line.split(','));
  const amountAt = columns.indexOf('Amount (base units)');
  const typeAt = columns.indexOf('Type');
  const sum = (type: string) =>
    rows.filter((r) => r[typeAt] === type).reduce((t, r) => t + BigInt(r[amountAt] ?? '0'), 0n);
  expect(rows).toHaveLength(3);
  expect(sum('payout')).toBe(merchant);
  expect(sum('merchant_refund')).toBe(refunded);

  // A range the wrong way round is refused before anything is read.
  await page.getByLabel('From', { exact: true }).fill('2026-12-31');
  await page.getByLabel('To', { exact: true }).fill('2026-01-01');
  await expect(page.getByRole('alert')).toContainText('from must be on or before to');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
});
