import { describe, expect, it } from 'vitest';
import { chainInfo } from '../lib/chain-info.ts';
import { demoNote } from './demo-link.tsx';

const DEMO_PAYOUT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('what the demo note says', () => {
  it('warns that the demo is a real payment to the platform on Base mainnet', () => {
    const note = demoNote(
      chainInfo(8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', DEMO_PAYOUT),
    );
    expect(note).toContain('real payment');
    expect(note).toContain('0.25 USDC on Base');
  });

  it('says a local chain is a test network', () => {
    expect(
      demoNote(chainInfo(31337, '0x5FbDB2315678afecb367f032d93F642f64180aa3', DEMO_PAYOUT)),
    ).toBe('Demo on Local chain 31337, a test network: pay with test USDC, no real money.');
  });

  it('says so when the site offers no live demo', () => {
    const chain = {
      ...chainInfo(8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
      loaded: true,
    };
    expect(demoNote(chain)).toBe('There is no live demo on this site.');
  });

  it('offers no demo before the API has named the payee', () => {
    expect(demoNote(chainInfo(8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'))).toContain(
      'unavailable',
    );
  });
});
