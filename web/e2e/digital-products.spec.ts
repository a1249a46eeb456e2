// Journey: a merchant makes a product a file product from the Edit Product dialog (uploads a PDF),
// sees its payable URL (HTTP 402) with a copy button and the curl and @x402/fetch examples, and
// the store's Agents tab (spending per payer address); at phone and laptop sizes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';
import { snapBoth } from './support/screenshots.ts';

test('a merchant uploads a file to sell and copies its payable URL and examples', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page.request);
  const store = await createStore(page.request, unique('Press'));
  const product = await createProduct(page.request, store.id, {
    title: 'Field Guide',
    priceUsdc: '4.00',
  });
  const pdf = join(mkdtempSync(join(tmpdir(), 'digital-e2e-')), 'field guide.pdf');
  writeFileSync(pdf, '%PDF-1.4\n% a field guide\n%%EOF\n');

  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('button', { name: 'Edit Field Guide' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Product' });
  // A physical product: no payable URL yet, a file can be chosen.
  await expect(dialog.getByTestId('x402-url')).toHaveCount(0);
  await dialog.getByLabel('Sell a file').setInputFiles(pdf);
  await expect(dialog.getByText('field guide.pdf', { exact: true })).toBeVisible();
  await expect(dialog.getByText(/application\/pdf, \d+ B/)).toBeVisible();

  const url = dialog.getByTestId('x402-url');
  await expect(url).toHaveText(new RegExp(`/api/x402/products/${product.id}$`));
  const shown = (await url.textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Copy payable url' }).click();
  await expect(dialog.getByRole('button', { name: 'Payable URL copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  await expect(dialog.getByText(`curl -i ${shown}`)).toBeVisible();
  const example = dialog.getByTestId('x402-fetch-example');
  await expect(example).toContainText('wrapFetchWithPaymentFromConfig');
  await expect(example).toContainText(/network: 'eip155:\d+'/);
  await expect(example).toContainText(`await pay('${shown}')`);
  await dialog.getByRole('button', { name: 'Copy @x402/fetch example' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    "import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';",
  );
  // The payable URL answers 402 with the requirements.
  const required = await page.request.get(shown);
  expect(required.status()).toBe(402);
  expect(required.headers()['payment-required']).toBeTruthy();
  await snapBoth(page, 'digital-product-dialog', { noSidewaysScroll: true });

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('tab', { name: 'Agents' }).click();
  await expect(page.getByText('No payments over HTTP 402 yet.')).toBeVisible();
  await snapBoth(page, 'digital-product-agents', { noSidewaysScroll: true });
});
