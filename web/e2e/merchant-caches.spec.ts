// Merchant data never sits in the service worker's caches: the catalogue cache keeps only public
// catalogue reads (never a store's webhook secret or delivery log), and signing out leaves no
// /api/ answer of the merchant in Cache Storage and nothing of the merchant in IndexedDB, while
// the shopper's cart stays.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';

/** Every request URL held in Cache Storage, by cache name (paths and queries only). */
function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const found: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      found[name] = (await cache.keys()).map((request) => {
        const url = new URL(request.url);
        return url.pathname + url.search;
      });
    }
    return found;
  });
}

/** The cached /api/ URLs of every cache, flattened. */
async function cachedApiUrls(page: Page): Promise<string[]> {
  return Object.values(await cachedUrls(page))
    .flat()
    .filter((url) => url.startsWith('/api/'));
}

/** Rows per table of the app's IndexedDB database. */
function countRows(page: Page, tables: string[]): Promise<Record<string, number>> {
  return page.evaluate(async (names) => {
    const open = indexedDB.open('storefront');
    const idb = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const counts: Record<string, number> = {};
    for (const name of names) {
      counts[name] = await new Promise<number>((resolve, reject) => {
        const request = idb.transaction(name).objectStore(name).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    idb.close();
    return counts;
  }, tables);
}

/** The public catalogue reads the service worker may keep (web/vite.config.ts). */
const PUBLIC_CATALOGUE = [
  /^\/api\/stores$/,
  /^\/api\/stores\/[\w-]+$/,
  /^\/api\/stores\/[\w-]+\/products\?published=true$/,
  /^\/api\/products\/[\w-]+$/,
];
const MERCHANT_TABLES = ['adminStores', 'adminProducts', 'adminViews', 'drafts', 'outbox'];

test('no merchant data in Cache Storage, and none left after sign-out', async ({ page }) => {
  const seeded = readStackInfo();
  // A shopper's visit: the service worker takes control and caches the catalogue; one cart line.
  await page.goto(`/store/${seeded.store.slug}`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.getByRole('article')).toHaveCount(3);
  await page.getByRole('button', { name: 'Add to Cart: Sticker Pack' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');
  await expect
    .poll(() => cachedApiUrls(page))
    .toEqual(
      expect.arrayContaining([
        `/api/stores/${seeded.store.slug}`,
        // Note: the store page reads its products by slug, beside the store itself.
        `/api/stores/${seeded.store.slug}/products?published=true`,
      ]),
    );

  // A merchant signs in on the same device, with an unsynced (conflicting) edit left in the outbox.
  await signUp(page.request);
  const store = await createStore(page.request, unique('Cache Shop'));
  const lantern = await createProduct(page.request, store.id, {
    title: 'Lantern',
    priceUsdc: '18.00',
  });
  await page.goto(`/admin/stores/${store.id}`);
  await expect(page.getByRole('row', { name: 'Lantern' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit Lantern' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit.getByLabel('Title').fill('Lantern (mine)');
  const elsewhere = await page.request.put(`/api/products/${lantern.id}`, {
    data: { title: 'Lantern (API)' },
  });
  expect(elsewhere.ok()).toBe(true);
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByRole('article', { name: /^Conflict:/ })).toBeVisible();

  // The webhooks tab reads the signing secret and the delivery log (shoppers' details).
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await expect(page.getByText('A signing secret is created when you save a URL.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Deliveries' })).toBeVisible();

  // The merchant looks at their own storefront: read with the session, so the owner's view.
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  await expect
    .poll(() => cachedApiUrls(page))
    .toEqual(expect.arrayContaining([`/api/stores/${store.slug}`]));

  const whileSignedIn = await cachedApiUrls(page);
  expect.soft(whileSignedIn.filter((url) => /webhook/.test(url))).toEqual([]);
  expect
    .soft(whileSignedIn.filter((url) => !PUBLIC_CATALOGUE.some((rule) => rule.test(url))))
    .toEqual([]);
  expect(await countRows(page, ['drafts', 'outbox'])).toEqual({ drafts: 1, outbox: 1 });

  // Signing out leaves no /api/ answer read with the session, and nothing of the merchant's.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect.soft(await cachedApiUrls(page)).toEqual([]);
  expect
    .soft(await countRows(page, MERCHANT_TABLES))
    .toEqual(Object.fromEntries(MERCHANT_TABLES.map((name) => [name, 0])));
  // The shopper's cart stays.
  expect(await countRows(page, ['cartItems'])).toEqual({ cartItems: 1 });
});
