// Journey (issue 29): a shared device forgets. Shoppers take turns on one browser (one context,
// as on a family tablet): the checkout keeps a shopper's details only when that shopper ticks
// "Remember me on this device" (off by default), the next shopper finds an empty form with only a
// masked offer of the kept details, and "Forget my details" removes them from the device. Each
// order is stored with its own shopper's phone. Screenshots at phone and laptop sizes; axe finds
// no WCAG 2.1 AA violation on the checkout.
import { expect, type Page, test } from '@playwright/test';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { snapBoth } from './support/screenshots.ts';

const ADA = {
  Email: 'ada@example.com',
  Phone: '555-0100',
  'First name': 'Ada',
  'Last name': 'Lovelace',
  'Street address': '1 Engine Row',
  City: 'Portland',
  'ZIP code': '97201',
};
const GRACE = {
  Email: 'grace@example.com',
  Phone: '555-0199',
  'First name': 'Grace',
  'Last name': 'Hopper',
  'Street address': '9 Compiler Court',
  City: 'Arlington',
  'ZIP code': '22201',
};
const FIELDS = Object.keys(ADA) as (keyof typeof ADA)[];

async function openCheckout(page: Page, slug: string, productId: string) {
  await page.goto(`/store/${slug}/product/${productId}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(`/store/${slug}/checkout`);
  await expect(page.getByRole('button', { name: 'Proceed to Payment' }).first()).toBeVisible();
}

async function expectEmptyForm(page: Page) {
  for (const label of FIELDS) await expect(page.getByLabel(label, { exact: true })).toHaveValue('');
}

/** Fills the form as `shopper`, ticks "Remember me" when asked, and places the order. */
async function placeOrder(page: Page, shopper: typeof ADA, remember: boolean): Promise<string> {
  for (const label of FIELDS) await page.getByLabel(label, { exact: true }).fill(shopper[label]);
  await page.getByLabel('State').selectOption('OR');
  const box = page.getByLabel('Remember me on this device');
  await expect(box).not.toBeChecked();
  if (remember) await box.check();
  await page.getByRole('button', { name: 'Proceed to Payment' }).first().click();
  await expect(page).toHaveURL(/\/payment\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop() ?? '';
}

test('a shared browser forgets: the next shopper sees an empty form, and "Forget my details" removes what was kept', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // The merchant works from another browser (its own request context).
  await signUp(request);
  const store = await createStore(request, unique('Shared Kiosk'));
  const product = await createProduct(request, store.id, { title: 'Tote Bag', priceUsdc: '18.00' });

  // Ada does not tick "Remember me": nothing of hers stays for Grace.
  await openCheckout(page, store.slug, product.id);
  await expectEmptyForm(page);
  const adaFirst = await placeOrder(page, ADA, false);
  await openCheckout(page, store.slug, product.id);
  await expectEmptyForm(page);
  await expect(page.getByText('Saved on this device')).toHaveCount(0);

  // Ada comes back and ticks it this time.
  const adaSecond = await placeOrder(page, ADA, true);

  // Grace, on the same browser: an empty form; Ada's details are only offered, masked.
  await openCheckout(page, store.slug, product.id);
  await expect(page.getByRole('heading', { name: 'Saved on this device' })).toBeVisible();
  await expect(page.getByText('Details of Ada L. (a…@example.com) are kept')).toBeVisible();
  await expectEmptyForm(page);
  const text = (await page.locator('main').textContent()) ?? '';
  for (const secret of [ADA.Phone, ADA['Street address'], ADA.Email, ADA['Last name']])
    expect(text).not.toContain(secret);
  await snapBoth(page, 'shared-device-1-offer', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page)).toEqual([]);

  // Grace makes the device forget Ada, and it stays forgotten.
  await page.getByRole('button', { name: 'Forget my details' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Forgotten' })).toBeVisible();
  await expect(page.getByText('Saved on this device')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Proceed to Payment' }).first()).toBeVisible();
  await expect(page.getByText('Saved on this device')).toHaveCount(0);
  await expectEmptyForm(page);
  await snapBoth(page, 'shared-device-2-forgotten', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page)).toEqual([]);
  const graceOrder = await placeOrder(page, GRACE, false);

  // A third shopper finds nothing at all.
  await openCheckout(page, store.slug, product.id);
  await expectEmptyForm(page);
  await expect(page.getByText('Saved on this device')).toHaveCount(0);

  // Every order carries its own shopper's phone and email.
  for (const [orderId, shopper] of [
    [adaFirst, ADA],
    [adaSecond, ADA],
    [graceOrder, GRACE],
  ] as const) {
    // The order page of the merchant.
    const order = await (await request.get(`/api/orders/${orderId}/detail`)).json();
    expect(order.shippingAddress).toMatchObject({
      email: shopper.Email,
      phone: shopper.Phone,
      firstName: shopper['First name'],
    });
  }
});

test('a shopper who used the kept details can still make the device forget them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signUp(request);
  const store = await createStore(request, unique('Kept Details'));
  const product = await createProduct(request, store.id, { title: 'Card', priceUsdc: '3.00' });
  await openCheckout(page, store.slug, product.id);
  await placeOrder(page, ADA, true);

  await openCheckout(page, store.slug, product.id);
  await page.getByRole('button', { name: 'Use these details' }).click();
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue(ADA.Phone);
  await expect(page.getByText('are filled in and still kept on this device')).toBeVisible();
  await snapBoth(page, 'shared-device-3-used', { noSidewaysScroll: true });
  await page.getByRole('button', { name: 'Forget my details' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Forgotten' })).toBeVisible();
  // The form keeps this order's details; the device keeps nothing.
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue(ADA.Phone);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Proceed to Payment' }).first()).toBeVisible();
  await expect(page.getByText('Saved on this device')).toHaveCount(0);
  await expectEmptyForm(page);
});
