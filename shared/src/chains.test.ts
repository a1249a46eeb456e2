import { describe, expect, it } from 'vitest';
import {
  BASE_CHAIN_ID,
  BASE_SEPOLIA_CHAIN_ID,
  CHAINS,
  chainFacts,
  defaultConfirmations,
  isSupportedChainId,
  LOCAL_CHAIN_ID,
  SUPPORTED_CHAIN_IDS,
  USDC_ADDRESSES,
  usdcAddressOf,
  usdcDomainNameOf,
} from './chains.ts';
import * as constants from './constants.ts';

describe('chain facts', () => {
  it('ids and names', () => {
    expect([BASE_CHAIN_ID, BASE_SEPOLIA_CHAIN_ID, LOCAL_CHAIN_ID]).toEqual([8453, 84532, 31337]);
    expect(SUPPORTED_CHAIN_IDS.sort()).toEqual([31337, 8453, 84532].sort());
    expect(CHAINS[8453].name).toBe('Base');
    expect(CHAINS[84532].name).toBe('Base Sepolia');
    expect(CHAINS[8453].key).toBe('base');
    expect(CHAINS[84532].key).toBe('baseSepolia');
    expect(CHAINS[31337].key).toBe('anvil');
    for (const id of SUPPORTED_CHAIN_IDS) expect(CHAINS[id].id).toBe(id);
  });

  it("Circle's USDC on Base and Base Sepolia; none on the local chain", () => {
    expect(usdcAddressOf(8453)).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect(usdcAddressOf(84532)).toBe('0x036CbD53842c5426634e7929541eC2318f3dCF7e');
    expect(usdcAddressOf(31337)).toBeUndefined();
    expect(usdcAddressOf(1)).toBeUndefined();
    expect(USDC_ADDRESSES).toEqual({ 8453: CHAINS[8453].usdc, 84532: CHAINS[84532].usdc });
  });

  it('explorers, depths, block times, test mode', () => {
    expect(CHAINS[8453].explorerUrl).toBe('https://basescan.org');
    expect(CHAINS[84532].explorerUrl).toBe('https://sepolia.basescan.org');
    expect(CHAINS[31337].explorerUrl).toBeUndefined();
    expect(defaultConfirmations(8453)).toBe(10);
    expect(defaultConfirmations(84532)).toBe(10);
    expect(defaultConfirmations(31337)).toBe(2);
    expect(defaultConfirmations(1)).toBe(10);
    expect(CHAINS[8453].blockTimeMs).toBe(200);
    expect(CHAINS[8453].testMode).toBe(false);
    expect(CHAINS[84532].testMode).toBe(true);
    expect(CHAINS[31337].testMode).toBe(true);
  });

  it('unknown chains', () => {
    expect(isSupportedChainId(1)).toBe(false);
    expect(isSupportedChainId(8453)).toBe(true);
    expect(chainFacts(1)).toBeUndefined();
    expect(chainFacts(Number.NaN)).toBeUndefined();
  });

  it('constants.ts re-exports the same values', () => {
    expect(constants.BASE_USDC_ADDRESS).toBe(CHAINS[8453].usdc);
    expect(constants.BASE_SEPOLIA_USDC_ADDRESS).toBe(CHAINS[84532].usdc);
    expect(constants.BASE_CHAIN_ID).toBe(8453);
  });
});

describe('USDC EIP-712 domain names', () => {
  it('signs for "USD Coin" on Base and locally, "USDC" on Base Sepolia', () => {
    expect(usdcDomainNameOf(8453)).toBe('USD Coin');
    expect(usdcDomainNameOf(84532)).toBe('USDC');
    expect(usdcDomainNameOf(31337)).toBe('USD Coin');
  });
});
