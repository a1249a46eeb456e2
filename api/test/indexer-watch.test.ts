// The indexer's deposit addresses (indexer/src/watch.ts) are the addresses the API hands out (both
// derive them with @store/shared/deposit-address), for mainnet and testnet extended keys, and its
// settings refuse what they cannot mean.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  createTransferFilter,
  DEFAULT_ADDRESS_GAP,
  depositAddressesOf,
  filterOptionsFromEnv,
} from '@store/indexer/watch';
import { DEPOSIT_ACCOUNT_PATH, depositAddressDeriver } from '@store/shared/deposit-address';
import { TEST_XPUB } from '@store/stack/keys';
import postgres from 'postgres';
import { newMnemonic } from '../src/keys/hd.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';

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

describe('its feed on a real Postgres, as the indexer reads it', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await startTestDatabase();
    // One assigned wallet at index 3, as the API writes it.
    const admin = postgres(testDb.adminUrl, { max: 1, onnotice: () => {} });
    const address = depositAddressDeriver(TEST_XPUB)(3).address;
    await admin`select setval('payment_derivation_index_seq', 3)`;
    const [order] = await admin<{ id: string }[]>`
      insert into orders (store_id, source, payee_address, customer_email, items, total_usdc)
      values (null, 'unsigned_link', ${address}, 'a@b.co', '[]'::jsonb, 1) returning id`;
    await admin`
      insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
        expected_amount_usdc, store_payment_address, payment_chain)
      values (${order?.id ?? ''}, ${address}, 'm/44''/60''/0''/0/3', 3, 1, ${address}, 'base')`;
    await admin.end();
  }, STACK_TIMEOUT_MS);
  afterAll(async () => {
    await testDb?.stop();
  }, STACK_TIMEOUT_MS);

  const filterWith = (xpub: string, log: (line: string) => void) =>
    createTransferFilter({
      all: false,
      xpub,
      gap: 0,
      databaseUrl: testDb.roleUrls.indexer,
      log,
    });
  const stranger = '0x000000000000000000000000000000000000dEaD';

  test("with the API's key it keeps our addresses only", async () => {
    const filter = filterWith(TEST_XPUB, () => {});
    await filter.atBlock('0x01');
    const ours = depositAddressDeriver(TEST_XPUB)(3).address;
    expect(filter.keeps(stranger, ours)).toBe(true);
    expect(filter.keeps(stranger, stranger)).toBe(false);
  });

  test('with another key it keeps every transfer and says why (it would drop every payment)', async () => {
    const lines: string[] = [];
    const other = HDKey.fromMasterSeed(mnemonicToSeedSync(newMnemonic())).derive(
      DEPOSIT_ACCOUNT_PATH,
    ).publicExtendedKey;
    const filter = filterWith(other, (line) => lines.push(line));
    await filter.atBlock('0x01');
    expect(filter.keeps(stranger, stranger)).toBe(true);
    expect(lines.join('\n')).toContain('PAYMENT_XPUB does not derive the deposit addresses');
  });
});
