// Journey: one-tap pay. A wallet extension is simulated by an EIP-1193 provider injected before
// the app loads (announced by EIP-6963 and set as window.ethereum) whose requests go to the local
// anvil chain for an unlocked anvil account holding test USDC. The wallet starts on another chain,
// so the page must switch to the settlement chain and add it first; the shopper rejects the first
// payment request, then pays the remaining amount after a partial payment, sees the transaction
// while it is pending, and the order is paid on the chain.
import { expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { payUsdc } from './support/pay.ts';
import { snapBoth } from './support/screenshots.ts';

const MERCHANT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'; // anvil account 3
/** The shopper's wallet account: anvil account 6 (unlocked on anvil, 10,000 test USDC). */
const SHOPPER = localAccount(6).address;

/** Installs the test wallet: runs in the page before any of its scripts. */
function installWallet(options: { account: string; chainIdHex: string }) {
  const state = {
    chainId: '0x1',
    known: new Set(['0x1']),
    rejectNext: false,
    calls: [] as string[],
  };
  const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
  const provider = {
    async request(args: { method: string; params?: unknown[] }) {
      const { method, params = [] } = args;
      state.calls.push(method);
      const first = params[0] as { chainId?: string } | undefined;
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [options.account];
        case 'eth_chainId':
          return state.chainId;
        case 'wallet_switchEthereumChain':
          if (!first?.chainId || !state.known.has(first.chainId)) {
            throw rpcError(4902, 'Unrecognized chain ID');
          }
          state.chainId = first.chainId;
          return null;
        case 'wallet_addEthereumChain':
          if (!first?.chainId) throw rpcError(-32602, 'Invalid chain');
          state.known.add(first.chainId);
          state.chainId = first.chainId;
          return null;
        case 'eth_sendTransaction':
          if (state.rejectNext) {
            state.rejectNext = false;
            throw rpcError(4001, 'User rejected the request.');
          }
          break;
      }
      if (state.chainId !== options.chainIdHex) throw rpcError(4901, 'Wrong chain');
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
    uuid: '6b9b6c1e-3a8c-4d52-9f4f-2b8d0c3f6a11',
    name: 'Test Wallet',
    icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
    rdns: 'test.wallet',
  };
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({ info, provider }),
      }),
    );
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  Object.assign(window, { ethereum: provider, testWallet: state });
}

test('pay the remaining amount from the browser wallet', async ({ page, context }) => {
  const stack = readStackInfo();
  const sent: string[] = [];
  // The wallet's link to the chain runs in the test (the page's CSP allows no other origin).
  await page.exposeFunction('anvilRpc', async (body: string) => {
    const response = await fetch(stack.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    if (JSON.parse(body).method === 'eth_sendTransaction') sent.push(JSON.parse(text).result);
    return text;
  });
  await page.addInitScript(installWallet, {
    account: SHOPPER,
    chainIdHex: `0x${stack.chainId.toString(16)}`,
  });

  const params = new URLSearchParams({
    storeName: 'Harbour Books',
    items: JSON.stringify([{ title: 'Atlas', priceUsdc: '3.20', quantity: 1 }]),
    paymentAddress: MERCHANT,
    theme: 'light',
    accentColor: '#10b981',
    customerEmail: 'ada@example.com',
    phone: '555-0101',
    firstName: 'Ada',
    lastName: 'Lovelace',
    street: '12 St James Square',
    city: 'Arlington',
    state: 'VA',
    zipCode: '22202',
  });
  await page.goto(`/universal-checkout?${params}`);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  const orderId = page.url().split('/').pop() ?? '';
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // The QR code and 'Open in wallet' carry the EIP-681 request of the whole amount.
  const request = (units: number) =>
    `ethereum:${stack.usdc}@${stack.chainId}/transfer?address=${address}&uint256=${units}`;
  await expect(page.getByTestId('open-in-wallet')).toHaveAttribute('href', request(3_200_000));
  await expect(
    page.getByRole('img', {
      name: `QR code of the payment address ${address} with a request to pay 3.20 USDC on Local chain ${stack.chainId}`,
    }),
  ).toBeVisible();
  // The merchant's #10b981 (2.5:1 on white) colours the amount at 4.5:1 or more on its card.
  const ratio = await page.getByTestId('payment-amount').evaluate((element) => {
    const channels = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const luminance = (css: string) => {
      const [r = 0, g = 0, b = 0] = channels(css).map((c) => {
        const v = c / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const card = element.closest('.card') ?? document.body;
    const [text, background] = [
      luminance(getComputedStyle(element).color),
      luminance(getComputedStyle(card).backgroundColor),
    ];
    return (Math.max(text, background) + 0.05) / (Math.min(text, background) + 0.05);
  });
  expect(ratio).toBeGreaterThanOrEqual(4.5);
  await snapBoth(page, 'wallet-1-payment');

  // Part of the amount from elsewhere: the wallet request switches to the rest.
  await payUsdc(stack, address, '1.00', 6);
  const status = async () =>
    (await (
      await context.request.get(`${stack.apiUrl}/api/check-payment-status/${orderId}`)
    ).json()) as { status: string; receivedAmount?: string };
  await expect.poll(async () => (await status()).status, { timeout: 30_000 }).toBe('underpaid');
  await page.getByRole('button', { name: 'Check Payment Status' }).click();
  await expect(page.getByTestId('payment-amount')).toHaveText('2.20 USDC');
  await expect(page.getByTestId('open-in-wallet')).toHaveAttribute('href', request(2_200_000));

  // The shopper rejects the first request in the wallet: the page says so and can try again.
  await page.evaluate(() => {
    (window as unknown as { testWallet: { rejectNext: boolean } }).testWallet.rejectNext = true;
  });
  const pay = page.getByRole('button', { name: 'Pay with browser wallet' });
  await pay.click();
  await expect(page.getByTestId('wallet-progress')).toHaveText(
    'You rejected the payment in your wallet. Nothing was sent; you can try again.',
  );
  expect(sent).toHaveLength(0);
  const calls = await page.evaluate(
    () => (window as unknown as { testWallet: { calls: string[] } }).testWallet.calls,
  );
  // The wallet started on another chain: the page switched, was told 4902, and added the chain.
  expect(calls).toEqual(
    expect.arrayContaining(['wallet_switchEthereumChain', 'wallet_addEthereumChain']),
  );
  expect(calls.indexOf('wallet_addEthereumChain')).toBeGreaterThan(
    calls.indexOf('wallet_switchEthereumChain'),
  );

  // The page's timers stand still while the sent transaction is looked at (the push may confirm
  // the payment at once, and the page moves on 2 s later).
  await page.clock.install();
  await page.clock.pauseAt(new Date(Date.now() + 1_000));
  await pay.click();
  const tx = page.getByTestId('wallet-tx');
  await expect(tx).toBeVisible();
  expect(sent).toHaveLength(1);
  const hash = sent[0] ?? '';
  await expect(tx).toHaveText(`${hash.slice(0, 10)}…${hash.slice(-8)}`);
  // Note: on a 0.2 s chain the receipt may already be in: pending or included, the hash shows.
  await expect(page.getByTestId('wallet-progress')).toContainText(
    /Transaction sent: .* Waiting for it to be included|Transaction .* is in a block/,
  );
  await snapBoth(page, 'wallet-2-sent');
  await page.clock.resume();

  // The chain has the whole amount: the order is paid and the page says so.
  await expect
    .poll(async () => (await status()).status, { timeout: 30_000 })
    .toMatch(/^(received|forwarded)$/);
  expect((await status()).receivedAmount).toBe('3.200000');
  // Seen by the page's own detection (push, or the 10 s poll): confirmed, then the thank-you page.
  await expect(page).toHaveURL(`${stack.webUrl}/thank-you/${orderId}`, { timeout: 20_000 });
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed');
  await expect(page.getByTestId('payment-tx')).toHaveText(/^0x[0-9a-f]{8}…[0-9a-f]{8}$/);
  await snapBoth(page, 'wallet-3-thank-you');
});
