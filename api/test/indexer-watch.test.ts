// The indexer's own derivation of deposit addresses (indexer/src/watch.ts) gives the addresses the
// API hands out (api/src/keys/deposit-address.ts), for mainnet and testnet extended keys, and its
// settings refuse what they cannot mean.
import { describe, expect, test } from 'bun:test';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  DEFAULT_ADDRESS_GAP,
  depositAddressesOf,
  filterOptionsFromEnv,
} from '../../indexer/src/watch.ts';
import { depositAddressDeriver } from '../src/keys/deposit-address.ts';
import { DEPOSIT_ACCOUNT_PATH, newMnemonic } from '../src/keys/hd.ts';
import { TEST_XPUB } from './support/database.ts';

describe('the indexer derives our deposit addresses', () => {
  test('the same as the API, index by index', () => {
    const api = depositAddressDeriver(TEST_XPUB);
    const indexer = depositAddressesOf(TEST_XPUB);
    for (const index of [0, 1, 2, 99, 1000, 2 ** 31 - 1]) {
      expect(indexer(index)).toBe(api(index).address.toLowerCase());
    }
  });

  test('from a testnet key (tpub) too, and refuses a key of another depth', () => {
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(newMnemonic()), {
      private: 0x04358394,
      public: 0x043587cf,
    });
    const tpub = root.derive(DEPOSIT_ACCOUNT_PATH).publicExtendedKey;
    expect(tpub.startsWith('tpub')).toBe(true);
    expect(depositAddressesOf(tpub)(7)).toBe(depositAddressDeriver(tpub)(7).address.toLowerCase());
    const account = HDKey.fromMasterSeed(mnemonicToSeedSync(newMnemonic())).derive("m/44'/60'/0'");
    expect(() => depositAddressesOf(account.publicExtendedKey)).toThrow(/depth 3/);
  });
});

describe('its settings', () => {
  test('default to our transfers only, with the default gap', () => {
    const options = filterOptionsFromEnv({ PAYMENT_XPUB: TEST_XPUB, DATABASE_URL: 'postgres://x' });
    expect(options).toMatchObject({ all: false, gap: DEFAULT_ADDRESS_GAP, xpub: TEST_XPUB });
    expect(filterOptionsFromEnv({ INDEXER_ALL_TRANSFERS: 'true' }).all).toBe(true);
    expect(filterOptionsFromEnv({ INDEXER_ADDRESS_GAP: '0' }).gap).toBe(0);
  });

  test('refuse a flag or a gap they cannot read', () => {
    expect(() => filterOptionsFromEnv({ INDEXER_ALL_TRANSFERS: 'yes' })).toThrow(/true or false/);
    expect(() => filterOptionsFromEnv({ INDEXER_ADDRESS_GAP: '-1' })).toThrow(/whole number/);
    expect(() => filterOptionsFromEnv({ INDEXER_ADDRESS_GAP: '1.5' })).toThrow(/whole number/);
  });
});
