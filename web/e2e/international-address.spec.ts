// Journey: a shopper in Germany checks out a universal link. The Country select starts on the
// United States (the state list and ZIP code); choosing Germany turns them into an optional
// region and a postal code. The shopper pays from an anvil account, the page moves on to the
// thank-you page, which shows the German address with its country, and the API's order carries
// the country. Screenshots of the checkout at phone and laptop sizes.
import { expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { payUsdc } from './support/pay.ts';
import { snapBoth } from './support/screenshots.ts';

const MERCHANT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'; // anvil account 3

test('a shopper in Germany checks out, pays and sees the German address', async ({
  page,
  request,
}) => {
  const stack = readStackInfo();
  const link = new URLSearchParams({
    storeName: 'Kiez Kaffee',
    items: JSON.stringify([{ title: 'Filter coffee', priceUsdc: '6.50', quantity: 2 }]),
    paymentAddress: MERCHANT,
    customerEmail: 'grete@example.de',
  });
  await page.goto(`/universal-checkout?${link}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kiez Kaffee');

  // The default is the United States, with its fields and messages.
  const country = page.getByLabel('Country');
  await expect(country).toHaveValue('US');
  await expect(country).toHaveAttribute('autocomplete', 'country');
  await expect(country.locator('option').first()).toHaveText('United States');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByText('State is required')).toBeVisible();
  await expect(page.getByText('ZIP code is required')).toBeVisible();

  // Germany: a free-text region (left empty) and a postal code.
  await country.selectOption({ label: 'Germany' });
  await expect(country).toHaveValue('DE');
  await expect(page.getByLabel('ZIP code')).toHaveCount(0);
  const region = page.getByLabel('State / Province / Region');
  await expect(region).toHaveAttribute('autocomplete', 'address-level1');
  await expect(page.getByLabel('Postal code')).toHaveAttribute('autocomplete', 'postal-code');
  await expect(page.getByText('State is required')).toHaveCount(0);
  await page.getByLabel('Phone').fill('+49 30 1234567');
  await page.getByLabel('First name').fill('Grete');
  await page.getByLabel('Last name').fill('Müller');
  await page.getByLabel('Street address').fill('Torstraße 1');
  await page.getByLabel('City').fill('Berlin');
  await page.getByLabel('Postal code').fill('10115/');
  await page.getByLabel('Postal code').blur();
  await expect(
    page.getByText('Postal code can only contain letters, numbers, spaces and hyphens'),
  ).toBeVisible();
  await page.getByLabel('Postal code').fill('10115');
  await expect(page.getByText('Postal code can only contain')).toHaveCount(0);
  await expect(page.getByTestId('order-total')).toHaveText('13.00 USDC');
  await country.scrollIntoViewIfNeeded();
  await snapBoth(page, 'international-1-checkout');

  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  const orderId = page.url().split('/').pop() ?? '';
  // Note: the browser that placed the order holds its buyer token: with it the order is in full.
  const buyerToken = await page.evaluate(
    (id) => localStorage.getItem(`review-token:${id}`),
    orderId,
  );
  expect(buyerToken).toMatch(/^[0-9a-f]{64}$/);
  const order = await (
    await request.get(`${stack.apiUrl}/api/orders/${orderId}`, {
      headers: { 'x-buyer-token': buyerToken ?? '' },
    })
  ).json();
  expect(order.shippingAddress).toEqual({
    firstName: 'Grete',
    lastName: 'Müller',
    email: 'grete@example.de',
    phone: '+49 30 1234567',
    street: 'Torstraße 1',
    city: 'Berlin',
    country: 'DE',
    state: '',
    zipCode: '10115',
  });

  await expect(page.getByTestId('payment-amount')).toHaveText('13.00 USDC');
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await payUsdc(stack, address, '13.00', 4);
  await expect(page).toHaveURL(`/thank-you/${orderId}`, { timeout: 30_000 });
  const shipped = page.locator('address');
  await expect(shipped).toContainText('Grete Müller');
  await expect(shipped).toContainText('Torstraße 1');
  await expect(shipped).toContainText('10115 Berlin');
  await expect(shipped).toContainText('Germany');
  await snapBoth(page, 'international-2-thank-you');
});
