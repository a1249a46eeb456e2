import { describe, expect, it } from 'vitest';
import { BASE_CHAIN_ID, BASE_USDC_ADDRESS } from './chains.ts';
import { parseUsdcTransferUri, usdcTransferUri } from './eip681.ts';
import { parseUsdc } from './money.ts';

const DEPOSIT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('usdcTransferUri', () => {
  it('names USDC on Base, the transfer, the deposit address and the amount in base units', () => {
    expect(
      usdcTransferUri({
        usdc: BASE_USDC_ADDRESS,
        chainId: BASE_CHAIN_ID,
        to: DEPOSIT,
        amount: parseUsdc('34.59'),
      }),
    ).toBe(
      `ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=${DEPOSIT}&uint256=34590000`,
    );
  });

  it('writes large and odd amounts as plain digits, exact to the base unit', () => {
    const uri = usdcTransferUri({
      usdc: BASE_USDC_ADDRESS,
      chainId: 84532,
      to: DEPOSIT,
      amount: parseUsdc('1000000000.000001'),
    });
    expect(uri).toMatch(/uint256=1000000000000001$/);
    expect(parseUsdcTransferUri(uri)).toEqual({
      usdc: BASE_USDC_ADDRESS,
      chainId: 84532,
      to: DEPOSIT,
      amount: 1000000000000001n,
    });
  });

  it('refuses what would send money nowhere', () => {
    const ok = { usdc: BASE_USDC_ADDRESS, chainId: BASE_CHAIN_ID, to: DEPOSIT, amount: 1n };
    expect(() => usdcTransferUri({ ...ok, to: '0x123' })).toThrow(/recipient/);
    expect(() => usdcTransferUri({ ...ok, usdc: 'usdc' })).toThrow(/token/);
    expect(() => usdcTransferUri({ ...ok, chainId: 0 })).toThrow(/chain id/);
    expect(() => usdcTransferUri({ ...ok, chainId: 1.5 })).toThrow(/chain id/);
    expect(() => usdcTransferUri({ ...ok, amount: 0n })).toThrow(/amount/);
    expect(() => usdcTransferUri({ ...ok, amount: -5n })).toThrow(/amount/);
  });
});

describe('parseUsdcTransferUri', () => {
  it('reads nothing but a USDC transfer request', () => {
    expect(parseUsdcTransferUri(DEPOSIT)).toBeUndefined();
    expect(parseUsdcTransferUri(`ethereum:${DEPOSIT}@8453`)).toBeUndefined();
    expect(
      parseUsdcTransferUri(
        `ethereum:${BASE_USDC_ADDRESS}@8453/approve?address=${DEPOSIT}&uint256=1`,
      ),
    ).toBeUndefined();
  });
});
