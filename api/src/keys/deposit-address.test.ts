// The API's xpub-only derivation gives the addresses the worker can sign for (mnemonic side).
import { describe, expect, test } from 'bun:test';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { depositAddressDeriver, depositPath } from '@store/shared/deposit-address';
import { mnemonicToAccount } from 'viem/accounts';
import { depositAccount } from './deposit-address.ts';
import { depositXpubFromMnemonic, newMnemonic } from './hd.ts';

// Anvil's well-known mnemonic: its m/44'/60'/0'/0/n addresses are public knowledge.
const ANVIL = 'test test test test test test test test test test test junk';

describe('deposit addresses', () => {
  test('match the well-known addresses of a public mnemonic', () => {
    const derive = depositAddressDeriver(depositXpubFromMnemonic(ANVIL));
    expect(derive(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(derive(1).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(derive(1).path).toBe("m/44'/60'/0'/0/1");
  });

  test('from the xpub equal the mnemonic-derived accounts, for several indexes', () => {
    const mnemonic = newMnemonic();
    const derive = depositAddressDeriver(depositXpubFromMnemonic(mnemonic));
    for (const index of [0, 1, 2, 17, 1000, 2 ** 31 - 1]) {
      expect(derive(index).address).toBe(depositAccount(mnemonic, index).address);
    }
  });

  test("sign with the key BIP-44 gives the mnemonic's account at each index", async () => {
    const mnemonic = newMnemonic();
    for (const index of [0, 3, 2 ** 31 - 1]) {
      const expected = mnemonicToAccount(mnemonic, {
        path: depositPath(index) as `m/44'/60'/${string}`,
      });
      const account = depositAccount(mnemonic, index);
      expect(account.address).toBe(expected.address);
      expect(await account.signMessage({ message: 'forward' })).toBe(
        await expected.signMessage({ message: 'forward' }),
      );
    }
    expect(() => depositAccount(mnemonic, 2 ** 31)).toThrow(RangeError);
  });

  test('refuse an xpub of another level than the deposit account', () => {
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(newMnemonic()));
    const accountLevel = root.derive("m/44'/60'/0'").publicExtendedKey;
    expect(() => depositAddressDeriver(accountLevel)).toThrow('is at depth 3');
  });

  test('refuse hardened or negative indexes', () => {
    const derive = depositAddressDeriver(depositXpubFromMnemonic(ANVIL));
    expect(() => derive(2 ** 31)).toThrow(RangeError);
    expect(() => derive(-1)).toThrow(RangeError);
    expect(depositPath(5)).toBe("m/44'/60'/0'/0/5");
  });
});
