// Journeys: a store's invoices and a customer's erasure, in Chromium on the real stack. The merchant
// fills the store's legal details in "Invoices and customer data" (a bad tax ID refused beside its
// field), a paid order's page downloads its invoice PDF (INV-000001); then the merchant erases a
// customer from her page after a confirmation: she leaves the customers list and its search, her
// order keeps its amount and shows no email or address; another merchant gets 404 and an anonymous
// client 401 from the invoice and the erasure. Screenshots at 390 and 1280 px.
import { expect, request as newRequest, test } from '@playwright/test';
import { formatOrderNumber, shippingFor, storeCheckoutTotals } from '@store/shared';
import { createProduct, createStore, payOrder, signUp, unique } from './admin-helpers.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

test('invoice settings, the invoice PDF of a paid order, and erasing a customer', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signUp(page.request);
  const store = await createStore(page.request, unique('Tea House'));
  const product = await createProduct(page.request, store.id, {
    title: 'Green tea',
    priceUsdc: '9.00',
    inventory: 10,
  });
  const order = async (email: string, first: string, last: string) => {
    const items = [{ productId: product.id, title: 'Green tea', priceUsdc: '9.00', quantity: 2 }];
    const totals = storeCheckoutTotals(items, shippingFor('free'));
    const response = await page.request.post('/api/orders', {
      data: {
        storeId: store.id,
        customerEmail: email,
        shippingAddress: {
          firstName: first,
          lastName: last,
          email,
          phone: '555-0100',
          street: '12 Hudson Street',
          city: 'New York',
          state: 'NY',
          zipCode: '10001',
        },
        items,
        subtotalUsdc: totals.subtotalUsdc,
        shippingUsdc: totals.shippingUsdc,
        totalUsdc: totals.totalUsdc,
        shippingMethod: 'free',
      },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as { id: string; totalUsdc: string };
  };
  const erin = await order('erin@example.com', 'Erin', 'Byrne');
  const kim = await order('kim@example.com', 'Kim', 'Lee');
  await payOrder(page.request, erin, 6);

  // The store's invoice details: a tax ID with a stray character is refused, then saved.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const invoices = page.getByRole('region', { name: 'Invoices and customer data' });
  await invoices.getByLabel('Legal name').fill('Tea House LLC');
  await invoices.getByLabel('Address').fill('12 Leaf Road\nPortland, OR 97201\nUnited States');
  await invoices.getByLabel('Tax ID').fill('EIN 12-3456789<');
  await invoices.getByRole('button', { name: 'Save Invoice Settings' }).click();
  await expect(
    invoices.getByText('Tax ID may hold letters, digits, spaces and - . / only'),
  ).toBeVisible();
  await invoices.getByLabel('Tax ID').fill('EIN 12-3456789');
  await invoices.getByLabel('Attach the invoice PDF to receipt emails').check();
  await invoices.getByRole('button', { name: 'Save Invoice Settings' }).click();
  await expect(page.getByText('Invoice settings saved').first()).toBeVisible();
  await invoices.scrollIntoViewIfNeeded();
  await snapBoth(page, 'invoice-settings', { noSidewaysScroll: true });
  const saved = await (await page.request.get(`/api/stores/${store.id}`)).json();
  expect(saved).toMatchObject({
    legalName: 'Tea House LLC',
    legalAddress: '12 Leaf Road\nPortland, OR 97201\nUnited States',
    taxId: 'EIN 12-3456789',
    attachInvoiceToReceipt: true,
  });

  // The paid order's page downloads its invoice.
  await page.goto(`/admin/orders/${erin.id}`);
  await expect(
    page.getByRole('heading', { name: `Order ${formatOrderNumber(erin.id)}` }),
  ).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download invoice' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('invoice-INV-000001.pdf');
  const pdf = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');
  await snapBoth(page, 'invoice-order-page', { noSidewaysScroll: true });
  // The pending order has no invoice button.
  await page.goto(`/admin/orders/${kim.id}`);
  await expect(
    page.getByRole('heading', { name: `Order ${formatOrderNumber(kim.id)}` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download invoice' })).toHaveCount(0);

  // Another merchant: 404; nobody signed in: 401 (invoice and erasure).
  const anonymous = await newRequest.newContext({ baseURL });
  expect((await anonymous.get(`/api/orders/${erin.id}/invoice.pdf`)).status()).toBe(401);
  expect(
    (
      await anonymous.post(`/api/stores/${store.id}/customers/erase`, {
        data: { email: 'erin@example.com' },
        headers: { 'idempotency-key': crypto.randomUUID() },
      })
    ).status(),
  ).toBe(401);
  const other = await newRequest.newContext({ baseURL });
  await signUp(other);
  expect((await other.get(`/api/orders/${erin.id}/invoice.pdf`)).status()).toBe(404);
  expect(
    (
      await other.post(`/api/stores/${store.id}/customers/erase`, {
        data: { email: 'erin@example.com' },
        headers: { 'idempotency-key': crypto.randomUUID() },
      })
    ).status(),
  ).toBe(404);
  await anonymous.dispose();
  await other.dispose();

  // Erin asks to be erased: from her page, confirmed in a dialog.
  await page.goto(`/admin/customers/${encodeURIComponent('erin@example.com')}?storeId=${store.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Erin Byrne');
  await page.getByRole('button', { name: 'Erase customer data' }).click();
  const dialog = page.getByRole('dialog', { name: "Erase this customer's data?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This cannot be undone.');
  await snapBoth(page, 'customer-erase-confirm');
  await dialog.getByRole('button', { name: 'Erase customer data' }).click();
  await expect(page.getByText('Customer data erased').first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/customers\?/);
  await page
    .getByRole('combobox', { name: 'Store', exact: true })
    .selectOption({ label: store.name });
  const rows = page.getByRole('region', { name: 'Customers' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('kim@example.com');
  await page.getByLabel('Search').fill('erin');
  await expect(rows).toHaveCount(0);
  await page.getByLabel('Search').fill('');
  await snapBoth(page, 'customers-after-erasure', { noSidewaysScroll: true });

  // Her order keeps its amount and status and shows no person.
  await page.goto(`/admin/orders/${erin.id}`);
  const customer = page.getByRole('region', { name: 'Customer' });
  await expect(customer).toContainText('Erased');
  await expect(customer).not.toContainText('erin@example.com');
  await expect(customer).not.toContainText('Hudson');
  await expect(page.getByText(`${erin.totalUsdc} USDC`).first()).toBeVisible();
  await snapBoth(page, 'order-after-erasure', { noSidewaysScroll: true });
});
