// Journey: an overpaid store order's excess goes back to the payer. The shopper overpays from an
// anvil account; the thank-you page offers the refund claim link; the claim page shows the amount,
// prefills the paying address and warns about exchange deposit addresses; once confirmed the page
// follows the refund until it is on chain, and the payer's balance is back to what it was less the
// order total. The merchant's order page lists the refund. Screenshots at phone and laptop sizes.
import { expect, type Page, test } from '@playwright/test';
import { formatUsdcFull, parseUsdc } from '@store/shared';
import { createPublicClient, getAddress, http, parseAbi, parseUnits } from 'viem';
import { foundry } from 'viem/chains';
import { localAccount } from '../../stack/src/usdc.ts';
import { createProduct, createStore, placeOrder, signUp, unique } from './admin-helpers.ts';
import { payUsdc } from './support/pay.ts';
import { snap } from './support/screenshots.ts';
import { readStackInfo } from './support/stack-info.ts';

const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };
const PAYER_ACCOUNT = 5;

async function snapBoth(page: Page, name: string) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await snap(page, `${name}-${size}`);
  }
}

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
  await expect(page).toHaveURL(/\/refund\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('heading', { name: 'Your refund' })).toBeVisible();
  await expect(page.getByText('1.50 USDC')).toBeVisible();
  const field = page.getByLabel('Send the refund to');
  await expect(field).toHaveValue(payer);
  await expect(page.getByRole('note')).toContainText('exchange');
  await snapBoth(page, 'refunds-2-claim');

  // A mistyped address is refused on the page; the paying address is confirmed.
  await field.fill(payer.toLowerCase().replace(/^0x./, '0xZ'));
  await page.getByRole('button', { name: 'Confirm refund address' }).click();
  await expect(page.getByText('0x followed by 40')).toBeVisible();
  await field.fill(payer);
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
