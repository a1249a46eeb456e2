// Journey: the shopper edits the store's cart. Adds are capped at the product's limit and the
// toast says so; the cart page (from the cart summary) changes quantities within the stock, removes
// lines (typed 0 or Remove), keeps line totals and the subtotal right, works offline and keeps the
// edits after a reload; Checkout from the cart carries the edited lines into the order. Product
// pictures: a placeholder when there is none, a fallback when one fails to load. On a phone the
// product page shows price and Buy Now on the first screen. Screenshots at phone and laptop sizes.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { JOURNEY_SETTINGS } from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };

async function snapBoth(page: Page, name: string) {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  if (await dismiss.isVisible()) await dismiss.click();
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await snap(page, `${name}-${size}`);
  }
}

/** The cart page's line of a product. */
function line(page: Page, title: string) {
  return page.getByTestId('cart-line').filter({ has: page.getByRole('heading', { name: title }) });
}

test('a shopper edits the cart within the limits, offline too, and checks out the edited lines', async ({
  page,
  context,
}) => {
  const stack = readStackInfo();
  const slug = stack.store.slug;
  await page.setViewportSize(SIZES.phone);
  await page.goto(`/store/${slug}`);
  await expect(page.getByRole('article')).toHaveCount(3);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // No product has a picture: a drawn placeholder, never an emoji or a broken image.
  await expect(page.getByTestId('image-placeholder')).toHaveCount(3);

  await page.getByRole('button', { name: 'Add to Cart: Sticker Pack' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to cart' })).toContainText(
    '1 × Sticker Pack',
  );
  await page.getByRole('button', { name: 'Add to Cart: Aurora Hoodie' }).click();
  await page.getByRole('button', { name: 'Add to Cart: Ceramic Mug' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('3 items');
  await snapBoth(page, 'cart-0-storefront');
  await page.setViewportSize(SIZES.phone);

  // Sticker Pack has 3 in stock: asking for 3 more adds only 2, and the toast says so.
  await page.getByRole('link', { name: 'View Sticker Pack' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sticker Pack');
  // On a phone, the price and Buy Now are on the first screen.
  for (const element of [
    page.getByTestId('product-price'),
    page.getByRole('button', { name: 'Buy Now' }),
  ]) {
    const box = await element.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(SIZES.phone.height);
  }
  await snapBoth(page, 'cart-1-product');
  await page.setViewportSize(SIZES.phone);
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(page.getByLabel('Quantity', { exact: true })).toHaveValue('3');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to cart' })).toContainText(
    'Only 2 × Sticker Pack added: your cart now has 3, the most you can order.',
  );
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Cart limit reached' })).toContainText(
    'Your cart already has 3 × Sticker Pack, the most you can order.',
  );
  await expect(page.getByTestId('cart-count')).toHaveText('5 items');

  // The cart summary opens the cart page.
  await page.getByRole('link', { name: /View cart/ }).click();
  await expect(page).toHaveURL(`/store/${slug}/cart`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your cart');
  await expect(page.getByTestId('cart-line')).toHaveCount(3);
  await expect(line(page, 'Sticker Pack').getByTestId('unit-price')).toHaveText('4.99 USDC');
  await expect(line(page, 'Sticker Pack').getByTestId('line-total')).toHaveText('14.97 USDC');
  await expect(line(page, 'Aurora Hoodie').getByTestId('line-total')).toHaveText('45.00 USDC');
  await expect(line(page, 'Ceramic Mug').getByTestId('line-total')).toHaveText('12.50 USDC');
  // 14.97 + 45.00 + 12.50
  await expect(page.getByTestId('cart-subtotal')).toHaveText('72.47 USDC');

  // Up to the limit, not beyond: plus is off at the stock, and a typed 5 becomes 3.
  const stickers = line(page, 'Sticker Pack');
  await expect(
    stickers.getByRole('button', { name: 'Increase quantity of Sticker Pack' }),
  ).toBeDisabled();
  await expect(stickers.getByTestId('line-note')).toHaveText('Only 3 available');
  await stickers.getByRole('spinbutton', { name: 'Quantity of Sticker Pack' }).fill('5');
  await stickers.getByRole('spinbutton', { name: 'Quantity of Sticker Pack' }).press('Enter');
  await expect(stickers.getByRole('spinbutton', { name: 'Quantity of Sticker Pack' })).toHaveValue(
    '3',
  );
  await expect(stickers.getByTestId('line-total')).toHaveText('14.97 USDC');

  const hoodie = line(page, 'Aurora Hoodie');
  await hoodie.getByRole('button', { name: 'Increase quantity of Aurora Hoodie' }).click();
  await expect(hoodie.getByRole('spinbutton', { name: 'Quantity of Aurora Hoodie' })).toHaveValue(
    '2',
  );
  await hoodie.getByRole('button', { name: 'Increase quantity of Aurora Hoodie' }).click();
  await expect(hoodie.getByTestId('line-total')).toHaveText('135.00 USDC');
  await expect(page.getByTestId('cart-subtotal')).toHaveText('162.47 USDC');

  // A typed 0 removes the line.
  await line(page, 'Ceramic Mug')
    .getByRole('spinbutton', { name: 'Quantity of Ceramic Mug' })
    .fill('0');
  await line(page, 'Ceramic Mug')
    .getByRole('spinbutton', { name: 'Quantity of Ceramic Mug' })
    .press('Enter');
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await expect(page.getByTestId('cart-subtotal')).toHaveText('149.97 USDC');
  await snapBoth(page, 'cart-2-cart');
  await page.setViewportSize(SIZES.phone);

  // Offline: editing still works, and the edits survive a reload.
  await context.setOffline(true);
  await hoodie.getByRole('button', { name: 'Decrease quantity of Aurora Hoodie' }).click();
  await expect(hoodie.getByTestId('line-total')).toHaveText('90.00 USDC');
  await stickers.getByRole('button', { name: 'Remove Sticker Pack' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-subtotal')).toHaveText('90.00 USDC');
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(hoodie.getByRole('spinbutton', { name: 'Quantity of Aurora Hoodie' })).toHaveValue(
    '2',
  );
  await expect(page.getByTestId('cart-subtotal')).toHaveText('90.00 USDC');
  await expect(page.getByTestId('cart-page-count')).toHaveText('(2 items)');
  await snap(page, 'cart-3-offline-phone');
  await page.getByRole('link', { name: /Back to Aurora Goods/ }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('2 items');
  await expect(page.getByTestId('cart-total')).toHaveText('90.00 USDC');
  await context.setOffline(false);

  // Checkout from the cart carries the edited lines.
  await page.getByRole('link', { name: /View cart/ }).click();
  await page.getByRole('link', { name: 'Checkout', exact: true }).click();
  await expect(page).toHaveURL(`/store/${slug}/checkout`);
  const summary = page.getByRole('complementary', { name: 'Order Summary' });
  await expect(summary.getByRole('listitem')).toHaveCount(1);
  await expect(summary.getByRole('listitem')).toContainText('Aurora Hoodie');
  await expect(summary.getByRole('listitem')).toContainText('× 2');
  // 90.00 + 7.20 (8% tax), free shipping
  await expect(page.getByTestId('order-total')).toHaveText('97.20 USDC');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Phone').fill('555-0199');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Street address').fill('1 Navy Yard');
  await page.getByLabel('City').fill('Arlington');
  await page.getByLabel('State').selectOption('VA');
  await page.getByLabel('ZIP code').fill('22202');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/store/${slug}/payment/[0-9a-f-]{36}$`));
  await expect(page.getByTestId('payment-amount')).toHaveText('97.20 USDC');
  const orderId = page.url().split('/').pop() ?? '';
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(
    order.items.map((item: { title: string; quantity: number }) => [item.title, item.quantity]),
  ).toEqual([['Aurora Hoodie', 2]]);
  expect(order.subtotalUsdc).toBe('90.00');
  // The order emptied the cart.
  await page.goto(`/store/${slug}/cart`);
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
});

test('product pictures: shown when they load, a fallback when they fail', async ({ page }) => {
  const stack = readStackInfo();
  // A second merchant's store with one working picture (a data: image) and one missing one.
  const post = async (path: string, body: unknown, cookie?: string) => {
    const response = await page.request.post(`${stack.apiUrl}${path}`, {
      headers: { 'idempotency-key': crypto.randomUUID(), ...(cookie ? { cookie } : {}) },
      data: body,
    });
    expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return response;
  };
  const signUp = await post('/api/auth/sign-up', {
    username: `pictures-${Date.now()}`,
    password: 'correct horse battery',
  });
  const cookie = (signUp.headers()['set-cookie'] ?? '').split(';')[0] ?? '';
  const store = await (
    await post(
      '/api/stores',
      { name: 'Picture Shop', slug: `pictures-${Date.now()}`, ...JOURNEY_SETTINGS },
      cookie,
    )
  ).json();
  const picture =
    'data:image/svg+xml,' +
    encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#0f766e"/></svg>',
    );
  for (const [title, imageUrl] of [
    ['Framed Print', picture],
    ['Lost Poster', `${stack.webUrl}/images/no-such-picture.png`],
  ]) {
    await post('/api/products', { title, priceUsdc: '10.00', imageUrl, storeId: store.id }, cookie);
  }

  await page.setViewportSize(SIZES.phone);
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('article')).toHaveCount(2);
  const print = page.getByRole('article').filter({ hasText: 'Framed Print' });
  const lost = page.getByRole('article').filter({ hasText: 'Lost Poster' });
  await lost.scrollIntoViewIfNeeded();
  await expect(print.locator('img')).toHaveJSProperty('complete', true);
  expect(await print.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
  await expect(lost.getByTestId('image-fallback')).toBeVisible();
  await expect(lost.locator('img')).toHaveCount(0);
  await snapBoth(page, 'cart-4-pictures');

  await page.setViewportSize(SIZES.phone);
  await lost.getByRole('link', { name: 'View Lost Poster' }).click();
  await expect(page.getByRole('img', { name: 'Lost Poster: image unavailable' })).toBeVisible();
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await page.getByRole('link', { name: /View cart/ }).click();
  await expect(page.getByTestId('cart-line').getByTestId('image-fallback')).toBeVisible();
});
