// Two merchants on one browser: after the first signs out, the second sees none of the first's
// stores, products or orders, in the UI or through the API.
import { expect, test } from '@playwright/test';
import { createProduct, createStore, PASSWORD, signUp, unique } from './admin-helpers.ts';

test('a second merchant sees none of the first one’s data', async ({ page }) => {
  const first = await signUp(page.request);
  const store = await createStore(page.request, unique('First Shop'));
  const product = await createProduct(page.request, store.id, {
    title: 'Secret',
    priceUsdc: '3.00',
  });
  await page.goto('/admin');
  await expect(page.getByRole('article', { name: store.name })).toBeVisible();
  await expect(page.getByTestId('merchant-name')).toHaveText(first);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);

  const second = unique('second');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Username').fill(second);
  await page.getByLabel('Email').fill(`${second}@example.com`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByTestId('merchant-name')).toHaveText(second);
  await expect(page.getByText('No stores yet')).toBeVisible();
  await expect(page.getByText(store.name)).toHaveCount(0);
  await expect(page.getByTestId('stat-Total Products')).toHaveText('0');

  await page.goto(`/admin/stores/${store.id}`);
  await expect(page.getByRole('heading', { name: 'Store not found' })).toBeVisible();
  await expect(page.getByText('Secret')).toHaveCount(0);
  await page.goto('/admin/orders');
  await expect(page.getByText('No orders match these filters.')).toBeVisible();

  // The API agrees: nothing of the first merchant's is readable or writable.
  expect(await (await page.request.get('/api/stores?mine=true')).json()).toEqual([]);
  expect((await page.request.get(`/api/stores/${store.id}/analytics`)).status()).toBe(404);
  const edit = await page.request.put(`/api/products/${product.id}`, {
    data: { title: 'Mine now' },
  });
  expect(edit.status()).toBe(404);
  // And the device kept none of it for the second merchant.
  const leftovers = await page.evaluate(async () => {
    const request = indexedDB.open('storefront');
    const idb = await new Promise<IDBDatabase>((resolve) => {
      request.onsuccess = () => resolve(request.result);
    });
    const count = (name: string) =>
      new Promise<number>((resolve) => {
        const req = idb.transaction(name).objectStore(name).count();
        req.onsuccess = () => resolve(req.result);
      });
    return { stores: await count('adminStores'), products: await count('adminProducts') };
  });
  expect(leftovers).toEqual({ stores: 0, products: 0 });
});
