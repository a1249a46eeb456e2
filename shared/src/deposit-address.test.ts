import { describe, expect, test } from 'vitest';
import { checksumAddress, hasValidChecksum } from './address-checksum.ts';
import { DEPOSIT_ACCOUNT_PATH, depositAddressDeriver, depositPath } from './deposit-address.ts';

// The deposit account (m/44'/60'/0'/0) of anvil's well-known mnemonic "test test … junk": its
// addresses are public knowledge.
const ANVIL_XPUB =
  'xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4';
// The same key with testnet version bytes, and its parent (the account m/44'/60'/0').
const ANVIL_TPUB =
  'tpubDEM6qsmV3nivZredbNaxqpHUWCcWzXGHudjwRqWDNdW7pKvRYvVXYyXPiQUbTLdD7gTxggf2YTb5xi1vjtzbyWN6rnQbkR2QaDTeMocgRs6';
const ANVIL_ACCOUNT_TPUB =
  'tpubDD1mtr8cB1zZEgXJJVKf39TKDoFjd2hi6Vi9nxwzzbpWUNrgU7hmJJswj4L9mqM2T3EYyxZ7orUXr2SHPnQcL4XMNQ7qBQBV8Q9M3sRQNAT';

describe('deposit addresses', () => {
  test('match the well-known checksummed addresses of a public mnemonic, with their paths', () => {
    const derive = depositAddressDeriver(ANVIL_XPUB);
    expect(derive(0)).toEqual({
      index: 0,
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      path: "m/44'/60'/0'/0/0",
    });
    expect(derive(1).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(derive(2).address).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
  });

  test('are the same from a testnet key (tpub) of the same account', () => {
    const mainnet = depositAddressDeriver(ANVIL_XPUB);
    const testnet = depositAddressDeriver(ANVIL_TPUB);
    for (const index of [0, 7, 1000, 2 ** 31 - 1]) {
      expect(testnet(index)).toEqual(mainnet(index));
    }
  });

  test('refuse a key of another depth than the deposit account, and hardened or negative indexes', () => {
    expect(() => depositAddressDeriver(ANVIL_ACCOUNT_TPUB)).toThrow('is at depth 3');
    const derive = depositAddressDeriver(ANVIL_XPUB);
    expect(() => derive(2 ** 31)).toThrow(RangeError);
    expect(() => derive(-1)).toThrow(RangeError);
    expect(() => derive(1.5)).toThrow(RangeError);
    expect(depositPath(5)).toBe(`${DEPOSIT_ACCOUNT_PATH}/5`);
  });
});

describe('checksumAddress', () => {
  test("gives EIP-55's own examples from any case, and refuses what is not an address", () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checksumAddress(address.toLowerCase())).toBe(address);
      expect(checksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
      expect(hasValidChecksum(checksumAddress(address))).toBe(true);
    }
    expect(() => checksumAddress('0x1234')).toThrow('not an address');
  });
});
