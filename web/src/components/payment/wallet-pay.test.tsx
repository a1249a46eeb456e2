// The wallet button after a transaction was sent: when the wallet then stops answering (its
// receipt lookup fails), the page keeps the transaction on screen and offers no second payment.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test-dom.ts';
import { WalletPay } from './wallet-pay.tsx';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const TX = `0x${'ab'.repeat(32)}`;
const rpcError = (code: number) => Object.assign(new Error(`code ${code}`), { code });

describe('WalletPay', () => {
  it('a sent transaction whose receipt cannot be read stays on screen, with no retry offered', async () => {
    const sends: string[] = [];
    const provider = {
      request: async ({ method }: { method: string }) => {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [ADDRESS];
        if (method === 'eth_chainId') return '0x2105';
        if (method === 'eth_sendTransaction') {
          sends.push(method);
          return TX;
        }
        if (method === 'eth_blockNumber') return '0x10';
        // The wallet's node fails from here on (an internal JSON-RPC error).
        throw rpcError(-32603);
      },
    };
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    await act(async () => {
      root.render(
        <WalletPay
          payable
          wallets={[{ id: 'test', name: 'Test wallet', provider }]}
          chainId={8453}
          usdc={USDC}
          to={ADDRESS}
          amount={1_000_000n}
          networkName="Base"
          receiptTimeoutMs={1500}
        />,
      );
    });
    const button = () =>
      [...container.querySelectorAll('button')].find((b) =>
        /Pay with browser wallet|Confirm in your wallet/.test(b.textContent ?? ''),
      );
    await act(async () => button()?.click());
    await waitFor(() => {
      if (!container.textContent?.includes('stopped reporting'))
        throw new Error(`not yet: ${container.textContent}`);
    }, 10_000);
    expect(container.textContent).toContain("Don't pay again");
    expect(container.querySelector('[data-testid="wallet-tx"]')?.getAttribute('title')).toBe(TX);
    expect(button()?.disabled).toBe(true);
    expect(sends).toHaveLength(1);
    await act(async () => root.unmount());
    container.remove();
  }, 20_000);
});
