// Journey: an overpaid store order's excess goes back to the payer. The shopper overpays from an
// anvil account; the thank-you page (in the browser that placed the order: it holds the order's
// buyer token) offers the refund claim link; the claim page shows the amount,
// prefills the paying address and warns about exchange deposit addresses; once confirmed the page
// follows the refund until it is on chain, and the payer's balance is back to what it was less the
// order total. The merchant's order page lists the refund. Then a forwarded order is refunded by
// its merchant from the payout wallet: a browser wallet is simulated by an EIP-1193 provider backed
// by an unlocked anvil account (the payout address), the payer confirms the address, the merchant
// sends from the order page and the order's refund shows as refunded. Last, an underpaid order
// is refunded from its deposit address by its merchant's decision, the day it happens (inside its
// 7-day window). Screenshots at 390 and
// 1280 px.
import { expect, type Page, test } from '@playwright/test';
import { formatUsdcFull, parseUsdc } from '@store/shared';
import { parseUsdcTransferUri } from '@store/shared/eip681';
import { readStackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { createPublicClient, getAddress, http, parseAbi, parseUnits } from 'viem';
import { foundry } from 'viem/chains';
import {
  createProduct,
  createStore,
  JOURNEY_SETTINGS,
  payOrder,
  payPartOfOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { expectNoBase } from './support/chain-names.ts';
import { payUsdc } from './support/pay.ts';
import { decodeQr } from './support/qr.ts';
import { snapBoth } from './support/screenshots.ts';

/** Makes `page` the browser that placed the order: it holds the order's buyer token. */
async function asShopperOf(page: Page, order: { id: string; reviewToken: string }) {
  await page.addInitScript(
    ([id, token]) => localStorage.setItem(`review-token:${id}`, token ?? ''),
    [order.id, order.reviewToken],
  );
}

/** The shopper's claim page of the order's refund, reached from their thank-you page. */
async function claimFromOrderPage(
  page: Page,
  slug: string,
  order: { id: string; reviewToken: string },
) {
  await asShopperOf(page, order);
  await page.goto(`/store/${slug}/thank-you/${order.id}`);
  await page.getByRole('link', { name: 'Claim your refund' }).click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/refund\//);
  // The shopper's refund/claim page names the local chain as such.
  await expect(page.getByRole('heading', { name: 'Your refund' })).toBeVisible();
  await expectNoBase(page);
}
const PAYER_ACCOUNT = 5;

test('an overpaid order: the shopper claims the excess and it arrives on chain', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const stack = readStackInfo();
  const chain = createPublicClient({
    chain: { ...foundry, id: stack.chainId },
    transport: http(stack.rpcUrl),
  });
  const balanceOf = (owner: `0x${string}`) =>
    chain.readContract({
      address: stack.usdc,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [owner],
    });
  const payer = getAddress(localAccount(PAYER_ACCOUNT).address);

  await signUp(page.request);
  const store = await createStore(page.request, unique('Refund Shop'));
  // The store's look, which its refund page wears too.
  const look = await page.request.put(`/api/stores/${store.id}`, {
    data: { theme: 'light', primaryColor: '#0f766e' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(look.status(), await look.text()).toBe(200);
  const product = await createProduct(page.request, store.id, {
    title: 'Beeswax candle',
    priceUsdc: '5.00',
    inventory: 10,
  });
  const order = await placeOrder(page.request, store.id, {
    id: product.id,
    title: 'Beeswax candle',
    priceUsdc: '5.00',
  });

  await asShopperOf(page, order);
  await page.goto(`/store/${store.slug}/payment/${order.id}`);
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  const before = await balanceOf(payer);
  const paid = formatUsdcFull(parseUsdc(order.totalUsdc) + parseUnits('1.5', 6));
  await payUsdc(stack, address, paid, PAYER_ACCOUNT);

  // The paid order's thank-you page offers the excess back.
  await expect(page).toHaveURL(/\/thank-you\//, { timeout: 60_000 });
  const claimLink = page.getByRole('link', { name: 'Claim your refund' });
  await expect(claimLink).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('You sent more than the order total.')).toBeVisible();
  await expect(page.getByText('1.50 USDC')).toBeVisible();
  await claimLink.scrollIntoViewIfNeeded();
  await snapBoth(page, 'refunds-1-thank-you');

  await claimLink.click();
  // Note: the order pages' link (the refund's id and an HMAC keyed with the buyer token): it sends
  // the money back to the address that paid, and no other.
  await expect(page).toHaveURL(/\/refund\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('heading', { name: 'Your refund' })).toBeVisible();
  await expect(page.getByText('1.50 USDC')).toBeVisible();
  // Branded as the payment page was: the store's name, logo, colours and light theme.
  await expect(page.getByRole('img', { name: `${store.name} logo` })).toHaveText('🕯️');
  await expect(page.locator('.refund-brand')).toContainText(store.name);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--primary')))
    .toBe('#0f766e');
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
  await expect(page.getByTestId('refund-address')).toHaveText(payer);
  await expectNoBase(page);
  await expect(page.getByRole('note').filter({ hasText: 'exchange' })).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'email we sent you' })).toBeVisible();
  await snapBoth(page, 'refunds-2-claim');

  // The paying address is confirmed.
  await page.getByRole('button', { name: 'Confirm refund address' }).click();
  await expect(page.getByRole('status')).toContainText('Refunded', { timeout: 60_000 });
  await expect(page.getByRole('status')).toContainText(payer);
  await snapBoth(page, 'refunds-3-refunded');

  // On chain: the payer paid the total, nothing more.
  expect(await balanceOf(payer)).toBe(before - parseUsdc(order.totalUsdc));

  // The merchant's order page lists the refund.
  await page.goto(`/admin/orders/${order.id}`);
  const card = page.getByRole('region', { name: 'Refunds' });
  await expect(card).toContainText('Overpaid excess: 1.50 USDC (refunded)');
  await expect(card).toContainText(payer);
  await card.scrollIntoViewIfNeeded();
  await snapBoth(page, 'refunds-4-admin');
});

/** A browser wallet for `account`, its requests sent to anvil through the test (window.anvilRpc). */
function installWallet(options: { account: string; chainIdHex: string }) {
  const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
  const provider = {
    async request(args: { method: string; params?: unknown[] }) {
      const { method, params = [] } = args;
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [options.account];
      if (method === 'eth_chainId') return options.chainIdHex;
      if (method === 'wallet_switchEthereumChain') return null;
      const answer = JSON.parse(
        await (window as unknown as { anvilRpc: (body: string) => Promise<string> }).anvilRpc(
          JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        ),
      );
      if (answer.error) throw rpcError(answer.error.code, answer.error.message);
      return answer.result;
    },
    on() {},
    removeListener() {},
  };
  const info = {
    uuid: '1f0c9a52-7d3e-4b8a-9c61-3e2f5a7b8d90',
    name: 'Test Wallet',
    icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
    rdns: 'test.wallet',
  };
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    );
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  Object.assign(window, { ethereum: provider });
}

test("a forwarded order is refunded from the merchant's wallet and shows as refunded", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const stack = readStackInfo();
  const payout = getAddress(localAccount(7).address);
  const payer = getAddress(localAccount(3).address);
  await page.exposeFunction('anvilRpc', async (body: string) => {
    const response = await fetch(stack.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return response.text();
  });
  await page.addInitScript(installWallet, {
    account: payout,
    chainIdHex: `0x${stack.chainId.toString(16)}`,
  });
  const chain = createPublicClient({
    chain: { ...foundry, id: stack.chainId },
    transport: http(stack.rpcUrl),
  });
  const balanceOf = (owner: `0x${string}`) =>
    chain.readContract({
      address: stack.usdc,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [owner],
    });

  await signUp(page.request);
  const name = unique('Payout Shop');
  const created = await page.request.post('/api/stores', {
    data: {
      name,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      paymentAddress: payout,
      logoUrl: '🕯️',
      ...JOURNEY_SETTINGS,
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(created.status()).toBe(201);
  const store = (await created.json()) as { id: string; slug: string };
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
  const before = await balanceOf(payer);
  await payOrder(page.request, order, 3);
  // Forwarded: everything paid can be refunded from the payout wallet.
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/orders/${order.id}/refunds`)).json())
          .refundableFromPayout,
      { timeout: 45_000 },
    )
    .toBe(formatUsdcFull(parseUsdc(order.totalUsdc)));

  await page.goto(`/admin/orders/${order.id}`);
  const card = page.getByRole('region', { name: 'Refunds' });
  await expect(card.getByLabel('Refund from your payout wallet (USDC)')).toHaveValue(
    order.totalUsdc,
  );
  await card.scrollIntoViewIfNeeded();
  await snapBoth(page, 'refunds-5-admin-payout-form');
  await card.getByRole('button', { name: 'Create refund' }).click();
  // The merchant gets no claim link: the payer confirms from their own pages (or the mail).
  await expect(card).toContainText('link emailed to them');
  await expect(card.getByRole('link', { name: /\/refund\// })).toHaveCount(0);

  // The payer confirms the address they paid from.
  const payerPage = await context.newPage();
  await claimFromOrderPage(payerPage, store.slug, order);
  await expect(payerPage.getByTestId('refund-address')).toHaveText(payer);
  await payerPage.getByRole('button', { name: 'Confirm refund address' }).click();
  await expect(payerPage.getByRole('status')).toContainText('on its way');
  await payerPage.close();

  // The merchant sends it from the wallet; the refund is matched on chain.
  await page.reload();
  const send = card.getByRole('button', { name: `Send ${order.totalUsdc} USDC from Test Wallet` });
  await expect(send).toBeVisible();
  // Any other wallet (a phone's) can send it too: the refund as an EIP-681 request, QR and link.
  const uri = await card.getByTestId('refund-uri').getAttribute('href');
  expect(parseUsdcTransferUri(uri ?? '')).toEqual({
    usdc: stack.usdc,
    chainId: stack.chainId,
    to: payer,
    amount: parseUsdc(order.totalUsdc),
  });
  // The QR code drawn on the page, read as a phone's camera reads it, is the same request.
  const scanned = await decodeQr(card.getByRole('img', { name: /^Payment request: / }));
  expect(scanned).toBe(uri);
  expect(scanned).toMatch(
    new RegExp(
      `^ethereum:${stack.usdc}@${stack.chainId}/transfer\\?address=${payer}&uint256=`,
      'i',
    ),
  );
  expect(parseUsdcTransferUri(scanned)).toEqual({
    usdc: stack.usdc,
    chainId: stack.chainId,
    to: payer,
    amount: parseUsdc(order.totalUsdc),
  });
  // The merchant's order page and refund panel name the local chain as such.
  await expectNoBase(page);
  await snapBoth(page, 'refunds-6-admin-send');
  await send.click();
  await expect(card).toContainText(
    `Refund from your payout wallet: ${order.totalUsdc} USDC (refunded)`,
    {
      timeout: 60_000,
    },
  );
  await card.scrollIntoViewIfNeeded();
  await snapBoth(page, 'refunds-7-admin-refunded');
  expect(await balanceOf(payer)).toBe(before);
  // The orders list names the local chain as such too.
  await page.goto('/admin/orders');
  await expect(page.getByText(`#${order.id.slice(-8)}`).first()).toBeVisible();
  await expectNoBase(page);
});

test('an underpaid order is refunded from its deposit address the day it happens', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const stack = readStackInfo();
  const payer = getAddress(localAccount(2).address);
  const chain = createPublicClient({
    chain: { ...foundry, id: stack.chainId },
    transport: http(stack.rpcUrl),
  });
  const balanceOf = (owner: string) =>
    chain.readContract({
      address: stack.usdc,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [owner as `0x${string}`],
    });

  await signUp(page.request);
  const store = await createStore(page.request, unique('Short Shop'));
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
  const before = await balanceOf(payer);
  const deposit = await payPartOfOrder(page.request, order.id, '1.00', 2);
  // Inside its payment window (7 days on the stack): the merchant decides at once.
  await page.goto(`/admin/orders/${order.id}`);
  const card = page.getByRole('region', { name: 'Refunds' });
  await expect(card).toContainText('Missing');
  await expect(card).toContainText('Only 1.00 USDC of 4.32 USDC arrived.');
  await expect(card.getByRole('button', { name: 'Accept as paid' })).toBeVisible();
  const refund = card.getByRole('button', { name: 'Refund 1.00 USDC' });
  await expect(refund).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await snapBoth(page, 'refunds-8-admin-underpaid');
  await refund.click();
  await expect(card).toContainText('link emailed to them');
  await expect(card).toContainText('Underpaid order: 1.00 USDC');

  const payerPage = await context.newPage();
  await claimFromOrderPage(payerPage, store.slug, order);
  await expect(payerPage.getByText('Your payment did not reach the order total')).toBeVisible();
  await expect(payerPage.getByTestId('refund-address')).toHaveText(payer);
  await payerPage.getByRole('button', { name: 'Confirm refund address' }).click();
  await expect(payerPage.getByRole('status')).toContainText('Refunded', { timeout: 60_000 });
  await payerPage.close();

  expect(await balanceOf(payer)).toBe(before);
  expect(await balanceOf(deposit)).toBe(0n);
  await page.reload();
  await expect(card).toContainText('Underpaid order: 1.00 USDC (refunded)');
});
