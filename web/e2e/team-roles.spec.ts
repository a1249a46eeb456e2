// Journey: what a store's team sees. The owner has a paid, forwarded order; a viewer and a staff
// member join from the mailed invitations and sign in, each in a browser of their own. The admin
// shows each only what their role allows (the permission table of shared/src/team.ts, which the
// API enforces too): the viewer reads the store, its products and the order with no button to
// change them; the staff member edits products, ships and refunds but sees no settings, webhooks,
// discount buttons, Team or Audit log; the owner sees all of it. Screenshots of the viewer's and
// the staff member's pages at 390 and 1280 px, with no WCAG 2.1 AA violation at either size.
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { formatUsdc, formatUsdcFull, parseUsdc } from '@store/shared';
import { readStackInfo } from '@store/stack/stack-info';
import {
  createProduct,
  createStore,
  PASSWORD,
  payOrder,
  payPartOfOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

const stack = readStackInfo();
type Mail = { id: number; to: string[]; subject: string; text: string };

/** A new account of `role` in its own browser, joined to the store from the mailed link. */
async function joined(
  browser: Browser,
  owner: APIRequestContext,
  store: { id: string; name: string },
  role: 'staff' | 'viewer',
  refundLimitUsdc = '25',
): Promise<Page> {
  const email = `${unique(role)}@example.com`;
  const invited = await owner.post(`/api/stores/${store.id}/invitations`, {
    data: { email, role, ...(role === 'staff' ? { refundLimitUsdc } : {}) },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const context = await browser.newContext({ baseURL: stack.webUrl });
  const page = await context.newPage();
  const signedUp = await page.request.post('/api/auth/sign-up', {
    data: { username: unique(role), password: PASSWORD, email },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  const find = async () =>
    ((await (await page.request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[])
      // Note: the invitation, not the address's verification mail the sign-up also sends.
      .filter(
        (mail) => mail.to.includes(email) && mail.subject === `Join ${store.name} on Storefront`,
      )
      .at(-1);
  await expect.poll(find, { timeout: 30_000 }).toBeTruthy();
  const link = /https?:\/\/\S+\?token=[\w-]+/.exec((await find())?.text ?? '')?.[0] ?? '';
  expect(link.startsWith(`${stack.webUrl}/accept-invitation?token=`), link).toBe(true);
  await page.goto(link);
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  return page;
}

/** What `page` shows of each thing a role may or may not do, by name. */
async function shown(page: Page, store: { id: string; name: string }, orderId: string) {
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await page.goto('/admin');
  await expect(page.getByRole('article', { name: store.name })).toBeVisible();
  const seen: Record<string, boolean> = {
    'nav Team': await nav.getByRole('link', { name: 'Team' }).isVisible(),
    'nav Audit log': await nav.getByRole('link', { name: 'Audit log' }).isVisible(),
    'nav Payouts': await nav.getByRole('link', { name: 'Payouts' }).isVisible(),
    'store card Edit': await page
      .getByRole('article', { name: store.name })
      .getByRole('button', { name: 'Edit' })
      .isVisible(),
  };
  await page.goto(`/admin/stores/${store.id}`);
  await expect(page.getByRole('heading', { name: store.name })).toBeVisible();
  await expect(page.getByRole('row', { name: 'Linen apron' })).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Store sections' });
  Object.assign(seen, {
    'Add Product': await page.getByRole('button', { name: 'Add Product' }).isVisible(),
    'Edit product': await page.getByRole('button', { name: 'Edit Linen apron' }).isVisible(),
    'Settings tab': await tabs.getByRole('tab', { name: 'Settings' }).isVisible(),
    'Webhooks tab': await tabs.getByRole('tab', { name: 'Webhooks' }).isVisible(),
    'API keys tab': await tabs.getByRole('tab', { name: 'API keys' }).isVisible(),
  });
  await page.goto(`/admin/orders/${orderId}`);
  const refunds = page.getByRole('region', { name: 'Refunds' });
  await expect(refunds).toBeVisible();
  await expect(page.getByRole('region', { name: 'Shipment' })).toBeVisible();
  Object.assign(seen, {
    'Create refund': await refunds.getByRole('button', { name: 'Create refund' }).isVisible(),
    'Mark as shipped': await page.getByRole('button', { name: 'Mark as shipped' }).isVisible(),
  });
  await page.goto(`/admin/discounts?storeId=${store.id}`);
  await expect(page.getByRole('heading', { name: 'Discounts' })).toBeVisible();
  await expect(page.getByText('No discount codes yet', { exact: false })).toBeVisible();
  seen['New code'] = await page.getByRole('button', { name: 'New code' }).isVisible();
  return seen;
}

/** Axe at both sizes, on the page as it stands. */
async function accessible(page: Page) {
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
}

test('a viewer and a staff member see only what their role allows; the owner sees all', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signUp(page.request, unique('owner'));
  const store = await createStore(page.request, unique('Roles Shop'));
  const product = await createProduct(page.request, store.id, {
    title: 'Linen apron',
    priceUsdc: '3.00',
    inventory: 10,
  });
  const order = await placeOrder(page.request, store.id, {
    id: product.id,
    title: 'Linen apron',
    priceUsdc: '3.00',
  });
  await payOrder(page.request, order, 9);
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/orders/${order.id}/refunds`)).json())
          .refundableFromPayout,
      { timeout: 60_000 },
    )
    .toBe(formatUsdcFull(parseUsdc(order.totalUsdc)));

  const viewer = await joined(browser, page.request, store, 'viewer');
  const staff = await joined(browser, page.request, store, 'staff');

  expect(await shown(viewer, store, order.id)).toEqual({
    'nav Team': false,
    'nav Audit log': false,
    'nav Payouts': true,
    'store card Edit': false,
    'Add Product': false,
    'Edit product': false,
    'Settings tab': false,
    'Webhooks tab': false,
    'API keys tab': true,
    'Create refund': false,
    'Mark as shipped': false,
    'New code': false,
  });
  await viewer.goto(`/admin/orders/${order.id}`);
  await expect(viewer.getByRole('region', { name: 'Refunds' })).toBeVisible();
  await snapBoth(viewer, 'team-roles-viewer-order', { noSidewaysScroll: true });
  await accessible(viewer);
  await viewer.goto(`/admin/stores/${store.id}`);
  await expect(viewer.getByRole('row', { name: 'Linen apron' })).toBeVisible();
  await snapBoth(viewer, 'team-roles-viewer-store', { noSidewaysScroll: true });
  await accessible(viewer);
  // The API agrees: the page a viewer does not see refuses them.
  const refused = await viewer.request.get(`/api/stores/${store.id}/audit`);
  expect(refused.status()).toBe(403);

  expect(await shown(staff, store, order.id)).toEqual({
    'nav Team': false,
    'nav Audit log': false,
    'nav Payouts': true,
    'store card Edit': false,
    'Add Product': true,
    'Edit product': true,
    'Settings tab': false,
    'Webhooks tab': false,
    'API keys tab': true,
    'Create refund': true,
    'Mark as shipped': true,
    'New code': false,
  });
  await staff.goto(`/admin/orders/${order.id}`);
  await expect(staff.getByRole('button', { name: 'Create refund' })).toBeVisible();
  await snapBoth(staff, 'team-roles-staff-order', { noSidewaysScroll: true });
  await accessible(staff);

  // The API keys tab offers a staff member keys of their role or less, for this store or all.
  await staff.goto(`/admin/stores/${store.id}`);
  await staff.getByRole('tab', { name: 'API keys' }).click();
  const role = staff.getByRole('combobox', { name: 'Role' });
  await expect(role.getByRole('option')).toHaveText(['staff (yours)', 'viewer']);
  await staff.getByLabel('Key name').fill('Packing station');
  await role.selectOption('viewer');
  await staff.getByRole('button', { name: 'Create API key' }).click();
  await expect(staff.getByTestId('new-api-key')).toBeVisible();
  const row = staff.getByRole('row', { name: 'API key Packing station' });
  await expect(row).toContainText('viewer');
  await expect(row).toContainText(store.name);
  await snapBoth(staff, 'team-roles-staff-api-keys', { noSidewaysScroll: true });
  await accessible(staff);

  expect(await shown(page, store, order.id)).toEqual({
    'nav Team': true,
    'nav Audit log': true,
    'nav Payouts': true,
    'store card Edit': true,
    'Add Product': true,
    'Edit product': true,
    'Settings tab': true,
    'Webhooks tab': true,
    'API keys tab': true,
    'Create refund': true,
    'Mark as shipped': true,
    'New code': true,
  });
  await viewer.context().close();
  await staff.context().close();
});

test('a staff member’s refund form stops an amount above their refund limit before sending it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signUp(page.request, unique('owner'));
  const store = await createStore(page.request, unique('Limit Shop'));
  const product = await createProduct(page.request, store.id, {
    title: 'Wool scarf',
    priceUsdc: '4.00',
    inventory: 10,
  });
  const order = await placeOrder(page.request, store.id, {
    id: product.id,
    title: 'Wool scarf',
    priceUsdc: '4.00',
  });
  await payOrder(page.request, order, 9);
  const refundable = formatUsdcFull(parseUsdc(order.totalUsdc));
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/orders/${order.id}/refunds`)).json())
          .refundableFromPayout,
      { timeout: 60_000 },
    )
    .toBe(refundable);
  // The order is 4.00 USDC or more; the staff member may refund up to 2.50 each time.
  expect(parseUsdc(refundable)).toBeGreaterThan(parseUsdc('2.50'));
  const staff = await joined(browser, page.request, store, 'staff', '2.50');
  const posted: string[] = [];
  staff.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/api/orders/${order.id}/refunds`))
      posted.push(request.postData() ?? '');
  });
  await staff.goto(`/admin/orders/${order.id}`);
  const refunds = staff.getByRole('region', { name: 'Refunds' });
  const field = refunds.getByLabel('Refund from your payout wallet (USDC)');
  // The form starts at what the staff member may refund, and says why it is not the whole order.
  await expect(field).toHaveValue('2.50');
  await expect(field).toHaveAccessibleDescription(
    /Up to 2\.50 USDC, your refund limit in this store/,
  );
  await field.fill('3');
  await expect(refunds.getByRole('alert')).toHaveText(
    'This refund is above your refund limit in this store',
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await refunds.getByRole('button', { name: 'Create refund' }).click();
  await expect(refunds.getByRole('alert')).toHaveText(
    'This refund is above your refund limit in this store',
  );
  expect(posted).toEqual([]);
  await snapBoth(staff, 'team-roles-staff-refund-limit', { noSidewaysScroll: true });
  await accessible(staff);
  // Within the limit the refund is created as for anyone who may refund.
  await field.fill('2.50');
  await expect(refunds.getByRole('alert')).toHaveCount(0);
  await refunds.getByRole('button', { name: 'Create refund' }).click();
  await expect(refunds.getByRole('listitem').filter({ hasText: '2.50 USDC' })).toBeVisible();
  expect(posted).toHaveLength(1);
  await staff.context().close();
});

test('a staff member sees an underpaid order’s decision above their refund limit disabled, with the reason', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signUp(page.request, unique('owner'));
  const store = await createStore(page.request, unique('Short Limit Shop'));
  const product = await createProduct(page.request, store.id, {
    title: 'Clay bowl',
    priceUsdc: '4.00',
    inventory: 10,
  });
  const order = await placeOrder(page.request, store.id, {
    id: product.id,
    title: 'Clay bowl',
    priceUsdc: '4.00',
  });
  await payPartOfOrder(page.request, order.id, '1.00', 8);
  // Accepting forgoes what is missing (3.00 USDC or more), above the 2.50 the staff member may
  // refund; refunding the 1.00 that arrived is within it.
  const missing = formatUsdcFull(parseUsdc(order.totalUsdc) - parseUsdc('1.00'));
  expect(parseUsdc(missing)).toBeGreaterThan(parseUsdc('2.50'));
  const staff = await joined(browser, page.request, store, 'staff', '2.50');
  const posted: string[] = [];
  staff.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(`/api/orders/${order.id}/`))
      posted.push(request.url());
  });
  await staff.goto(`/admin/orders/${order.id}`);
  const card = staff.getByRole('region', { name: 'Refunds' });
  const accept = card.getByRole('button', { name: 'Accept as paid' });
  await expect(accept).toBeDisabled();
  await expect(accept).toHaveAccessibleDescription(
    `Accepting forgoes the ${formatUsdc(parseUsdc(missing))} USDC missing, above your refund limit in this store (2.50 USDC). An owner or admin of the store can decide it.`,
  );
  const refund = card.getByRole('button', { name: 'Refund 1.00 USDC' });
  await expect(refund).toBeEnabled();
  await expect(refund).not.toHaveAccessibleDescription(/refund limit/);
  // It stays reachable from the keyboard (its reason is heard there), and does nothing.
  await accept.focus();
  await expect(accept).toBeFocused();
  await staff.keyboard.press('Enter');
  await accept.click({ force: true });
  await staff.waitForTimeout(500);
  expect(posted).toEqual([]);
  await expect(card.getByRole('listitem')).toHaveCount(0);
  await snapBoth(staff, 'team-roles-staff-decision-limit', { noSidewaysScroll: true });
  await accessible(staff);
  // Within the limit the staff member refunds the payer as anyone who may refund.
  await refund.click();
  await expect(card.getByRole('listitem').filter({ hasText: 'Underpaid order' })).toBeVisible();
  expect(posted).toHaveLength(1);
  await staff.context().close();
});
