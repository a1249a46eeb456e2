// Journey: the payment page shows a payment within a block, pushed by the API (Server-Sent Events)
// rather than found by the 10 s poll. The poll is cut off (its requests fail) so only the push can
// bring the news; the page must say "Payment detected" within 3 s of the transfer's block being
// mined, long before the first poll could fire. Then the fallback: with the push channel refused,
// the 10 s poll still confirms the payment. Screenshots at phone and laptop sizes.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo, type StackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import {
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  parseUnits,
  webSocket,
} from 'viem';
import { foundry } from 'viem/chains';
import { PAYMENT_SEEN_BADGE, payUsdc } from './support/pay.ts';
import { saveScreenshot } from './support/screenshots.ts';

const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };
const POLL_INTERVAL_MS = 10_000;

/** A universal order of `total` USDC with its deposit address (the payment page's form). */
async function universalOrder(page: Page, stack: StackInfo, total: string) {
  const response = await page.request.post(`${stack.apiUrl}/api/universal-orders`, {
    data: {
      storeName: 'Push Shop',
      storePaymentAddress: stack.store.paymentAddress,
      customerEmail: 'ada@example.com',
      shippingAddress: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '555-0101',
        street: '12 St James Square',
        city: 'Arlington',
        state: 'VA',
        zipCode: '22202',
      },
      items: [{ productId: 'push-1', title: 'Print', priceUsdc: total, quantity: 1 }],
      subtotalUsdc: total,
      shippingUsdc: '0.00',
      totalUsdc: total,
      paymentChain: 'base',
    },
  });
  expect(response.status()).toBe(201);
  const body = await response.json();
  return { orderId: body.order.id as string, address: body.paymentWallet.address as string };
}

/** Sends `amountUsdc` from anvil test account `from` without waiting for the receipt. */
function sendUsdc(stack: StackInfo, to: string, amountUsdc: string, from: number) {
  const wallet = createWalletClient({
    account: localAccount(from),
    chain: { ...foundry, id: stack.chainId },
    transport: http(stack.rpcUrl),
  });
  return wallet.writeContract({
    address: stack.usdc,
    abi: parseAbi(['function transfer(address to, uint256 amount) returns (bool)']),
    functionName: 'transfer',
    args: [to as `0x${string}`, parseUnits(amountUsdc, 6)],
  });
}

/** When each block header reached a newHeads subscription (epoch ms), by block number. */
async function watchHeads(rpcUrl: string) {
  const client = createPublicClient({
    transport: webSocket(rpcUrl.replace(/^http/, 'ws'), { reconnect: false }),
  });
  const arrivals = new Map<bigint, number>();
  const unwatch = client.watchBlockNumber({
    emitMissed: true,
    onBlockNumber: (n) => {
      if (!arrivals.has(n)) arrivals.set(n, Date.now());
    },
  });
  return {
    arrivedAt: (n: bigint) => arrivals.get(n),
    stop: () => unwatch(),
  };
}

/**
 * Records every frame the page paints (CDP screencast), to save the one painted in a state that
 * lasts less than a screenshot takes.
 */
async function recordFrames(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const frames: { data: string; at: number }[] = [];
  cdp.on('Page.screencastFrame', (frame) => {
    frames.push({ data: frame.data, at: (frame.metadata.timestamp ?? 0) * 1000 });
    void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
  });
  await cdp.send('Page.startScreencast', { format: 'png' });
  return {
    /** Saves the first frame painted at or after `from` (and before `until`) as `{name}.png`. */
    save: async (name: string, from: number, until = Number.POSITIVE_INFINITY) => {
      await cdp.send('Page.stopScreencast').catch(() => {});
      const frame = frames.find((f) => f.at >= from && f.at < until);
      if (frame) saveScreenshot(name, Buffer.from(frame.data, 'base64'));
      await cdp.detach().catch(() => {});
      return frame !== undefined;
    },
  };
}

/** Records in the page every text the progress card shows, with when it appeared (epoch ms). */
async function recordProgress(page: Page) {
  await page.addInitScript(() => {
    const seen: { text: string; at: number }[] = [];
    (window as unknown as { progressSeen: typeof seen }).progressSeen = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="payment-progress"]')?.textContent;
      if (text && seen.at(-1)?.text !== text) seen.push({ text, at: Date.now() });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const progressSeen = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { progressSeen: { text: string; at: number }[] }).progressSeen,
  );

test('"Payment detected" is pushed to the page within a block, with the poll cut off', async ({
  page,
}) => {
  const stack = readStackInfo();
  const heads = await watchHeads(stack.rpcUrl);
  const chain = createPublicClient({ transport: http(stack.rpcUrl) });
  let polls = 0;
  await page.route('**/api/check-payment-status/**', (route) => {
    polls += 1;
    return route.abort();
  });
  await recordProgress(page);
  try {
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      const { orderId, address } = await universalOrder(page, stack, '1.50');
      const channel = page.waitForResponse((r) => r.url().includes('/payment-events'));
      await page.goto(`/universal-payment/${orderId}`);
      await expect(page.getByTestId('payment-address')).toHaveText(address);
      expect((await channel).status()).toBe(200);
      const loadedAt = Date.now();

      // Note: the page is watched while the transfer is mined, not after its receipt is polled.
      const frames = await recordFrames(page);
      const hash = await sendUsdc(stack, address, '1.50', 5);
      await expect(page.getByTestId('payment-progress')).toBeVisible({ timeout: 3_000 });
      const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      await expect(page.getByTestId('payment-status')).toHaveText(PAYMENT_SEEN_BADGE);

      const seen = await progressSeen(page);
      const mined = heads.arrivedAt(receipt.blockNumber);
      expect(mined).toBeDefined();
      const first = seen[0];
      expect(first?.text).toMatch(/^Payment detected · [12] of 2 confirmations$/);
      // The frame the page painted while it said "detected" (it moves on within a block).
      await frames.save(`push-detected-${size}`, first?.at ?? 0, seen[1]?.at);
      const delay = (first?.at ?? Number.POSITIVE_INFINITY) - (mined ?? 0);
      console.log(`${size}: "Payment detected" ${delay} ms after the block header`);
      expect(delay).toBeLessThan(3_000);
      // Before the first poll could have fired, and none did.
      expect((first?.at ?? 0) - loadedAt).toBeLessThan(POLL_INTERVAL_MS);
      expect(polls).toBe(0);
      // The confirmations are pushed too, up to the depth, then the thank-you page.
      await expect(page.getByTestId('payment-progress')).toContainText(
        'Payment received · 2 of 2 confirmations',
      );
      await expect(page).toHaveURL(`${stack.webUrl}/thank-you/${orderId}`);
    }
  } finally {
    heads.stop();
  }
});

test('with the push channel refused, the 10 s poll still confirms the payment', async ({
  page,
}) => {
  const stack = readStackInfo();
  let streams = 0;
  await page.route('**/api/orders/*/payment-events', (route) => {
    streams += 1;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'down' } }),
    });
  });
  const { orderId, address } = await universalOrder(page, stack, '1.20');
  await page.goto(`/universal-payment/${orderId}`);
  await expect(page.getByTestId('payment-address')).toHaveText(address);
  const polled = page.waitForResponse((r) => r.url().includes('/api/check-payment-status/'), {
    timeout: POLL_INTERVAL_MS + 5_000,
  });
  await payUsdc(stack, address, '1.20', 6);
  expect((await polled).status()).toBe(200);
  await expect(page.getByTestId('payment-status')).toHaveText(PAYMENT_SEEN_BADGE);
  await expect(page).toHaveURL(`${stack.webUrl}/thank-you/${orderId}`);
  expect(streams).toBeGreaterThanOrEqual(1);
});
