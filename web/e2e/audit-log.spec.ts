// Journey: who changed what. A merchant changes a store's payout address and its address (slug),
// creates and revokes an API key; the Audit log page (from the admin navigation) lists each change
// newest first with who made it, from where and the values before and after; the filter keeps one
// kind of change, and the CSV downloads the same entries. Screenshots at 390 and 1280 px, with no
// WCAG 2.1 AA violation at either size.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createStore, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

test('the audit log lists money and access changes with their actor, filters them and downloads them', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const username = unique('auditor');
  await signUp(page.request, username);
  const store = await createStore(page.request, unique('Ledger Shop'));
  const payout = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
  const edited = await page.request.put(`/api/stores/${store.id}`, {
    data: { paymentAddress: payout },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  const slug = `${store.slug}-moved`;
  expect((await page.request.put(`/api/stores/${store.id}`, { data: { slug } })).status()).toBe(
    200,
  );
  const key = await (await page.request.post('/api/api-keys', { data: { name: 'Books' } })).json();
  expect((await page.request.delete(`/api/api-keys/${key.id}`)).status()).toBe(200);

  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  await expect(page).toHaveURL(/\/admin\/audit/);
  await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: store.name });
  const rows = page.getByRole('region', { name: 'Audit log' }).locator('tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0).getByRole('rowheader')).toHaveText('API key revoked');
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText('API key created');
  await expect(rows.nth(2).getByRole('rowheader')).toHaveText('Store address (slug) changed');
  await expect(rows.nth(2)).toContainText(`${store.slug} → ${slug}`);
  await expect(rows.nth(3).getByRole('rowheader')).toHaveText('Payout address changed');
  await expect(rows.nth(3)).toContainText(payout);
  await expect(rows.nth(4).getByRole('rowheader')).toHaveText('Store created');
  for (const row of await rows.all())
    await expect(row.locator('[data-label="Who"]')).toContainText(username);
  await snapBoth(page, 'audit-log', { noSidewaysScroll: true });
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }

  // One kind of change, and its CSV.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page
    .getByRole('combobox', { name: 'Change' })
    .selectOption({ label: 'Payout address changed' });
  await expect(rows).toHaveCount(1);
  await expect(page).toHaveURL(/action=store\.payout_address_changed/);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const file = readFileSync(String(await (await download).path()), 'utf8');
  const lines = file.trimEnd().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('store.payout_address_changed');
  expect(lines[1]).toContain(payout);
});
