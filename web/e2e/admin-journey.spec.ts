// Journey: a newcomer is sent from /admin to sign in, signs up instead, creates a store (slug
// filled from the name, the form's messages), adds a product and finds it on the storefront.
import { expect, test } from '@playwright/test';
import { PASSWORD, unique } from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

test('a newcomer signs up, builds a store with a product and sees it on the storefront', async ({
  page,
}) => {
  const username = unique('newcomer');
  const suffix = username.split('-')[1] ?? 'x';
  const storeName = `Night Market ${suffix}`;
  const slug = `night-market-${suffix}`;

  await page.goto('/admin');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fadmin$/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');
  await expect(page.getByRole('link', { name: '← Home' })).toHaveAttribute('href', '/');
  for (const label of ['Total Stores', 'Total Revenue', 'Total Orders', 'Total Products'])
    await expect(page.getByRole('article', { name: label })).toBeVisible();
  await expect(page.getByText('No stores yet')).toBeVisible();
  await expect(
    page.getByText('No orders yet. Orders will appear here once customers start purchasing!'),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Create Your First Store' }).click();
  const storeDialog = page.getByRole('dialog', { name: 'Create New Store' });
  await expect(storeDialog.getByLabel('Store Name')).toBeFocused();
  await storeDialog.getByRole('button', { name: 'Create Store' }).click();
  await expect(storeDialog.getByText('Store name is required')).toBeVisible();
  await expect(storeDialog.getByText('Store slug is required')).toBeVisible();
  await storeDialog.getByLabel('Store Name').fill(`${storeName}!`);
  await expect(storeDialog.getByLabel('Store Slug')).toHaveValue(slug);
  // The hint shows the store's address as it will be, following the slug.
  await expect(
    storeDialog.getByText(new RegExp(`Your store's address: https?://[^/]+/store/${slug}$`)),
  ).toBeVisible();
  await storeDialog.getByLabel('Payment Address').fill('0x123');
  await storeDialog.getByLabel('Primary color').fill('teal');
  await expect(
    storeDialog.getByText(
      'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
    ),
  ).toBeVisible();
  await expect(storeDialog.getByText('Must be a valid hex color')).toBeVisible();
  await expect(storeDialog.getByText('PNG, JPG or SVG, max 2MB', { exact: false })).toBeVisible();
  await storeDialog
    .getByLabel('Payment Address')
    .fill('0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f');
  await storeDialog.getByLabel('Primary color').fill('#0f766e');
  await storeDialog.getByLabel('Store Name').fill(storeName);
  await storeDialog.getByLabel('Logo', { exact: true }).fill('🌙');
  await snap(page, 'admin-1-create-store');
  await storeDialog.getByRole('button', { name: 'Create Store' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Store created successfully' }),
  ).toBeVisible();
  await expect(storeDialog).toBeHidden();

  const card = page.getByRole('article', { name: storeName });
  await expect(card.getByText(`/${slug}`)).toBeVisible();
  await expect(card.getByRole('img', { name: `${storeName} logo` })).toHaveText('🌙');
  await expect(card.getByText('0.00 USDC')).toBeVisible();
  // A new store charges no tax and ships free until its merchant sets them (Settings).
  const fresh = (await (await page.request.get(`/api/stores/${slug}`)).json()) as {
    taxRateBps: number;
    shippingOptions: Record<string, { enabled: boolean }>;
  };
  expect(fresh?.taxRateBps).toBe(0);
  expect(fresh?.shippingOptions).toMatchObject({
    free: { enabled: true },
    standard: { enabled: false },
    express: { enabled: false },
  });

  await card.getByRole('button', { name: 'Add Product' }).click();
  const productDialog = page.getByRole('dialog', { name: 'Add New Product' });
  await productDialog.getByRole('button', { name: 'Add Product' }).click();
  await expect(productDialog.getByText('Title is required')).toBeVisible();
  await expect(productDialog.getByText('Price is required')).toBeVisible();
  await productDialog.getByLabel('Title').fill('Paper Lantern');
  await productDialog.getByLabel('Price (USDC)').fill('0');
  await expect(productDialog.getByText('Price must be a positive number')).toBeVisible();
  await productDialog.getByLabel('Price (USDC)').fill('18.50');
  await productDialog.getByLabel('Inventory').fill('7 pieces');
  await expect(productDialog.getByText('PNG, JPG or WebP, max 5MB')).toBeVisible();
  await productDialog.getByRole('button', { name: 'Add Product' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Product added successfully' }),
  ).toBeVisible();
  await expect(productDialog).toBeHidden();
  await expect(card.locator('dd').first()).toHaveText('1');
  await expect(page.getByTestId('stat-Total Products')).toHaveText('1');
  await snap(page, 'admin-2-dashboard');

  await card.getByRole('link', { name: 'View Store' }).click();
  await expect(page).toHaveURL(`/store/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(storeName);
  const product = page.getByRole('article').filter({ hasText: 'Paper Lantern' });
  await expect(product).toBeVisible();
  await expect(product.getByText('18.50 USDC')).toBeVisible();
  await expect(product.getByText('7 left')).toBeVisible();
});
