// Offline edits: a product edited and another added while offline are kept on the device (drafts
// and outbox in IndexedDB, also across a reload), marked unsynced, and synced exactly once when the
// network returns. A stale edit (the product changed through the API meanwhile) shows both
// versions and the merchant chooses.
import { expect, type Page, test } from '@playwright/test';
import { createProduct, createStore, listProducts, signUp, unique } from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

async function openStorePage(page: Page, storeId: string) {
  await page.goto(`/admin/stores/${storeId}`);
  // Note: the app shell must be precached before the network goes away.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect(page.getByRole('row', { name: 'Lantern' })).toBeVisible();
}

test('edits made offline survive a reload and sync exactly once', async ({ page, context }) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Offline Shop'));
  await createProduct(page.request, store.id, { title: 'Lantern', priceUsdc: '18.00' });
  await openStorePage(page, store.id);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Edit Lantern' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit.getByLabel('Title').fill('Lantern XL');
  await edit.getByLabel('Price (USDC)').fill('20.00');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved offline' })).toBeVisible();

  await page.getByRole('button', { name: 'Add Product' }).click();
  const add = page.getByRole('dialog', { name: 'Add New Product' });
  await add.getByLabel('Title').fill('Candle');
  await add.getByLabel('Price (USDC)').fill('5.00');
  await add.getByRole('button', { name: 'Add Product' }).click();
  await expect(add).toBeHidden();

  // Still offline: a reload comes back from the service worker and IndexedDB.
  await page.reload();
  await expect(page.getByRole('row', { name: 'Lantern XL' }).getByText('Unsynced')).toBeVisible();
  await expect(page.getByRole('row', { name: 'Candle' }).getByText('Unsynced')).toBeVisible();
  await expect(page.getByText('2 changes waiting to sync.')).toBeVisible();
  await expect(page.getByText(/^Charts unavailable/)).toBeVisible();
  await snap(page, 'admin-3-offline');

  await context.setOffline(false);
  await expect(page.getByTestId('sync-badge')).toHaveCount(0, { timeout: 20_000 });
  // The charts load by themselves once the network is back (no stale failure left).
  await expect(page.getByTestId('volume-Received')).toHaveText('0.00 USDC');
  await expect(page.getByText(/^Charts unavailable/)).toHaveCount(0);
  await expect(page.getByText(/waiting to sync/)).toHaveCount(0);

  const products = await listProducts(page.request, store.id);
  expect(products.map((p) => [p.title, p.priceUsdc])).toEqual([
    ['Lantern XL', '20.00'],
    ['Candle', '5.00'],
  ]);
  // Another replay (reload, timer) sends nothing twice.
  await page.reload();
  await expect(page.getByRole('row', { name: 'Candle' })).toBeVisible();
  await page.waitForTimeout(1000);
  expect(await listProducts(page.request, store.id)).toHaveLength(2);
});

test('a conflicting edit made through the API is resolved in the UI', async ({ page }) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Conflict Shop'));
  const lantern = await createProduct(page.request, store.id, {
    title: 'Lantern',
    priceUsdc: '18.00',
  });
  await openStorePage(page, store.id);

  const editInUi = async (title: string) => {
    await page.getByRole('button', { name: /^Edit / }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Product' });
    await expect(dialog.getByLabel('Title')).toBeVisible();
    return async () => {
      await dialog.getByLabel('Title').fill(title);
      await dialog.getByRole('button', { name: 'Save Product' }).click();
      await expect(dialog).toBeHidden();
    };
  };
  const editThroughApi = async (title: string) => {
    const response = await page.request.put(`/api/products/${lantern.id}`, { data: { title } });
    expect(response.ok()).toBe(true);
  };

  // Keep mine: my title wins, sent on the server's current version.
  const save = await editInUi('Lantern (mine)');
  await editThroughApi('Lantern (API)');
  await save();
  const conflict = page.getByRole('article', { name: /^Conflict:/ });
  await expect(conflict.getByRole('row', { name: /title/ })).toContainText('Lantern (mine)');
  await expect(conflict.getByRole('row', { name: /title/ })).toContainText('Lantern (API)');
  await snap(page, 'admin-4-conflict');
  await conflict.getByRole('button', { name: 'Keep mine' }).click();
  await expect(conflict).toBeHidden();
  await expect(page.getByTestId('sync-badge')).toHaveCount(0);
  expect((await listProducts(page.request, store.id))[0]?.title).toBe('Lantern (mine)');

  // Take the server's: my edit is dropped and the API's version shows.
  const saveAgain = await editInUi('Lantern (mine again)');
  await editThroughApi('Lantern (API again)');
  await saveAgain();
  await page
    .getByRole('article', { name: /^Conflict:/ })
    .getByRole('button', { name: 'Use server version' })
    .click();
  await expect(page.getByRole('row', { name: 'Lantern (API again)' })).toBeVisible();
  await expect(page.getByTestId('sync-badge')).toHaveCount(0);
  expect((await listProducts(page.request, store.id))[0]?.title).toBe('Lantern (API again)');
});
