import { describe, expect, it } from 'vitest';
import { payFromWallet, providerErrorCode, WalletPaymentError } from './wallet-transfer.ts';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const rpcError = (code: number) => Object.assign(new Error(`code ${code}`), { code });

describe('providerErrorCode', () => {
  it('finds the code in the cause chain and in a wrapped original error', () => {
    expect(providerErrorCode(rpcError(4001))).toBe(4001);
    expect(providerErrorCode(new Error('outer', { cause: rpcError(4902) }))).toBe(4902);
    expect(providerErrorCode({ code: -32603, data: { originalError: { code: 4902 } } })).toBe(4902);
    expect(providerErrorCode(new Error('no code'))).toBeUndefined();
  });
});

describe('payFromWallet', () => {
  const transfer = (request: (method: string) => Promise<unknown>) => ({
    provider: { request: ({ method }: { method: string }) => request(method) },
    chainId: 8453,
    usdc: USDC as `0x${string}`,
    to: ADDRESS as `0x${string}`,
    amount: 1n,
    onSent: () => {},
  });

  it('reports a rejection in the wallet as rejected, sending nothing', async () => {
    const methods: string[] = [];
    const error = await payFromWallet(
      transfer(async (method) => {
        methods.push(method);
        if (method === 'eth_requestAccounts') return [ADDRESS];
        if (method === 'eth_chainId') return '0x2105';
        if (method === 'eth_sendTransaction') throw rpcError(4001);
        return null;
      }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletPaymentError);
    expect((error as WalletPaymentError).reason).toBe('rejected');
    expect(methods).toContain('eth_sendTransaction');
  });

  it('adds the chain when the wallet does not know it, then sends', async () => {
    let chain = '0x1';
    const methods: string[] = [];
    const sent: string[] = [];
    const hash = `0x${'ab'.repeat(32)}`;
    const result = await payFromWallet({
      ...transfer(async (method) => {
        methods.push(method);
        if (method === 'eth_requestAccounts') return [ADDRESS];
        if (method === 'eth_chainId') return chain;
        if (method === 'wallet_switchEthereumChain') throw rpcError(4902);
        if (method === 'wallet_addEthereumChain') {
          chain = '0x2105';
          return null;
        }
        if (method === 'eth_sendTransaction') return hash;
        if (method === 'eth_getTransactionReceipt') return { status: '0x1', blockNumber: '0x5' };
        if (method === 'eth_blockNumber') return '0x5';
        return null;
      }),
      onSent: (sentHash: string) => sent.push(sentHash),
    });
    expect(result).toBe(hash);
    expect(sent).toEqual([hash]);
    expect(methods.indexOf('wallet_addEthereumChain')).toBeGreaterThan(
      methods.indexOf('wallet_switchEthereumChain'),
    );
  });
});
