// Journeys: a merchant makes a product a file product from the Edit Product dialog (uploads a
// PDF), sees its payable URL (HTTP 402) with a copy button and the curl and @x402/fetch examples,
// and the store's Agents tab (spending per payer address: none, then the agent that paid the URL
// over HTTP 402 with what it spent); a merchant adds a file product with a
// price cap from Add Product (a price above the cap refused with the server's message), a shopper
// buys it and downloads the file from the thank-you page, from the receipt's link and from the
// receipt's order page on another device; at phone and laptop sizes, checked with axe.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { getAddress, toHex } from 'viem';
import { createProduct, createStore, listProducts, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { payUsdc } from './support/pay.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

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

  // An agent pays the URL (x402 v2 `exact`: an EIP-3009 authorization signed for the 402's
  // offer); once its order is paid the Agents tab lists the payer with what it spent.
  const agent = localAccount(3);
  const paid = await page.request.get(shown, {
    headers: {
      'PAYMENT-SIGNATURE': await x402Payment(
        agent,
        required.headers()['payment-required'] ?? '',
        readStackInfo().chainId,
      ),
    },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  expect(paid.headers()['payment-response']).toBeTruthy();
  const agents = page.getByRole('region', { name: 'Agents paying over HTTP 402' });
  const payerRow = agents.getByRole('row', { name: new RegExp(agent.address, 'i') });
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByRole('tab', { name: 'Agents' }).click();
        await expect(agents).toBeVisible();
        return payerRow.count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  await expect(payerRow.getByRole('rowheader')).toHaveText(new RegExp(`^${agent.address}$`, 'i'));
  await expect(payerRow.getByRole('cell')).toHaveText(['4.00 USDC', '1', /\d/]);
  await expect(page.getByText('No payments over HTTP 402 yet.')).toHaveCount(0);
  await snapBoth(page, 'digital-product-agents-paid', { noSidewaysScroll: true });
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
});

/**
 * The PAYMENT-SIGNATURE header of an x402 v2 `exact` payment of the 402's first offer: an EIP-3009
 * TransferWithAuthorization of its amount to its address, signed by `account` under the token's
 * EIP-712 domain the offer names.
 */
async function x402Payment(
  account: ReturnType<typeof localAccount>,
  paymentRequired: string,
  chainId: number,
): Promise<string> {
  const required = JSON.parse(Buffer.from(paymentRequired, 'base64').toString('utf8'));
  const [offer] = required.accepts;
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: account.address,
    to: getAddress(offer.payTo),
    value: String(offer.amount),
    validAfter: String(now - 600),
    validBefore: String(now + Number(offer.maxTimeoutSeconds)),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const signature = await account.signTypedData({
    domain: {
      name: offer.extra.name,
      version: offer.extra.version,
      chainId,
      verifyingContract: getAddress(offer.asset),
    },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const payload = {
    x402Version: 2,
    resource: required.resource,
    accepted: offer,
    payload: { signature, authorization },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

test('a file product with a price cap from Add Product: bought, its file downloaded', async ({
  page,
  browser,
}) => {
  const stack = readStackInfo();
  await signUp(page.request);
  const store = await createStore(page.request, unique('Zines'));
  const bytes = `%PDF-1.4\n% ${unique('zine')}\n%%EOF\n`;
  const pdf = join(mkdtempSync(join(tmpdir(), 'digital-e2e-')), 'night zine.pdf');
  writeFileSync(pdf, bytes);

  await page.setViewportSize(SCREEN_SIZES.phone);
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Product' });
  await dialog.getByLabel('Title').fill('Night Zine');
  await dialog.getByLabel('Price (USDC)').fill('6.00');
  // The cap is checked as typed, by the shared rules.
  const cap = dialog.getByLabel('Price cap (USDC, optional)');
  await cap.fill('0');
  await dialog.getByRole('button', { name: 'Add Product' }).click();
  await expect(dialog.getByText('Price cap must be a positive number')).toBeVisible();
  await cap.scrollIntoViewIfNeeded();
  await snapBoth(page, 'add-file-product-cap-invalid', { noSidewaysScroll: true });
  await cap.fill('5');
  await dialog.getByLabel('Sell a file').setInputFiles(pdf);
  await expect(dialog.getByText('night zine.pdf', { exact: true })).toBeVisible();
  await expect(dialog.getByText(/uploaded when you add the product/)).toBeVisible();
  await snapBoth(page, 'add-file-product-dialog', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page, '[role=dialog]')).toEqual([]);

  // A price above the cap: the server refuses it with its message; the dialog stays open.
  await dialog.getByRole('button', { name: 'Add Product' }).click();
  const refusal = "The price is above this product's price cap (5.00 USDC)";
  await expect(dialog.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
  await snapBoth(page, 'add-file-product-refused', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page, '[role=dialog]')).toEqual([]);
  expect((await listProducts(page.request, store.id)).map((p) => p.title)).toEqual([]);

  await dialog.getByLabel('Price (USDC)').fill('4.50');
  await dialog.getByRole('button', { name: 'Add Product' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'File uploaded' })).toBeVisible();
  const [product] = await listProducts(page.request, store.id);
  expect(product).toMatchObject({
    title: 'Night Zine',
    priceUsdc: '4.50',
    maxPriceUsdc: '5.00',
    digital: { kind: 'file', fileName: 'night zine.pdf', fileType: 'application/pdf' },
  });

  // Edit Product shows the same panel with the file, the cap and the payable URL.
  await page.getByRole('button', { name: 'Edit Night Zine' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await expect(edit.getByLabel('Price cap (USDC, optional)')).toHaveValue('5.00');
  await snapBoth(page, 'edit-file-product-cap', { noSidewaysScroll: true });
  await expect(edit.getByText('night zine.pdf', { exact: true })).toBeVisible();
  await expect(edit.getByLabel('Replace the file')).toBeVisible();
  await expect(edit.getByTestId('x402-url')).toBeVisible();
  // Raising the price above the cap from Edit Product: the server's message, nothing saved.
  await edit.getByLabel('Price (USDC)').fill('5.01');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(edit.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
  await snapBoth(page, 'edit-file-product-dialog', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page, '[role=dialog]')).toEqual([]);
  // The dialog keeps to its width at both sizes: the examples wrap, nothing scrolls sideways.
  for (const viewport of [SCREEN_SIZES.phone, SCREEN_SIZES.laptop]) {
    await page.setViewportSize(viewport);
    expect(await edit.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  }
  await edit.getByRole('button', { name: 'Cancel' }).click();
  expect((await listProducts(page.request, store.id))[0]?.priceUsdc).toBe('4.50');

  // A shopper buys it.
  const email = `${unique('reader')}@example.com`;
  await page.goto(`/store/${store.slug}/product/${product?.id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill('555-0100');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('12 Hudson Street');
  await page.getByLabel('City').fill('New York');
  await page.getByLabel('State').selectOption('NY');
  await page.getByLabel('ZIP code').fill('10001');
  await page.getByRole('radio', { name: /Free/ }).check();
  await page.getByRole('button', { name: 'Proceed to Payment' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/store/${store.slug}/payment/[0-9a-f-]{36}$`));
  const orderId = page.url().split('/').pop() ?? '';
  const amount = ((await page.getByTestId('payment-amount').textContent()) ?? '').split(' ')[0];
  expect(amount).toBe('4.86');
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  await payUsdc(stack, address, amount ?? '', 2);
  await expect(page).toHaveURL(`/store/${store.slug}/thank-you/${orderId}`, { timeout: 30_000 });

  // The thank-you page's link downloads the file.
  const downloads = page.getByRole('region', { name: 'Your downloads' });
  const link = downloads.getByRole('link', { name: 'Night Zine: night zine.pdf' });
  await expect(link).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('night zine.pdf');
  expect(readFileSync(await download.path(), 'utf8')).toBe(bytes);

  // The receipt carries a link that fetches the file, and the order page for fresh ones.
  type Mail = { to: string[]; subject: string; text: string };
  const receipt = async () =>
    ((await (await page.request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[]).find(
      (mail) => mail.to.includes(email) && mail.subject.includes('receipt'),
    );
  await expect.poll(receipt, { timeout: 30_000 }).toBeTruthy();
  const mail = (await receipt()) as Mail;
  const mailed = /^Night Zine \(night zine\.pdf\): (\S+)$/m.exec(mail.text)?.[1] ?? '';
  expect(mailed).toContain(`/api/downloads/${orderId}/${product?.id}?expires=`);
  const fetched = await page.request.get(mailed);
  expect(fetched.status()).toBe(200);
  expect(await fetched.text()).toBe(bytes);
  expect(mail.text).toContain('these links work for an hour, until ');
  const orderPage = /open your order for fresh links: (\S+)$/m.exec(mail.text)?.[1] ?? '';
  expect(orderPage).toContain(`/store/${store.slug}/thank-you/${orderId}#token=`);
  // Another device (nothing stored): the order page from the mail signs fresh links.
  const other = await browser.newContext({ viewport: SCREEN_SIZES.phone });
  const phone = await other.newPage();
  await phone.goto(orderPage);
  const fresh = phone
    .getByRole('region', { name: 'Your downloads' })
    .getByRole('link', { name: 'Night Zine: night zine.pdf' });
  await expect(fresh).toBeVisible();
  const freshUrl = new URL((await fresh.getAttribute('href')) ?? '', stack.webUrl).toString();
  expect(await (await phone.request.get(freshUrl)).text()).toBe(bytes);
  await other.close();
});
