// The worker's side of deposit addresses: the signing account of each, from the mnemonic (which
// never reaches the API). The addresses themselves are derived from the xpub alone, in
// @store/shared/deposit-address, by the API and the indexer alike.
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { DEPOSIT_ACCOUNT_PATH } from '@store/shared/deposit-address';
import { bytesToHex, type PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * The deposit account's extended private key of each mnemonic this process used.
 * Note: a mnemonic's seed is 2,048 rounds of PBKDF2-HMAC-SHA512 and the path to the account four
 * derivations (about 18 ms together): done once, a deposit key is then one child derivation
 * (under 1 ms), which matters when the worker forwards tens of payments a second.
 */
const accounts = new Map<string, HDKey>();

/** Worker side: the signing account of deposit address `index` (the mnemonic never reaches the API). */
export function depositAccount(mnemonic: string, index: number): PrivateKeyAccount {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError(`deposit index out of range: ${index}`);
  const phrase = mnemonic.trim();
  let account = accounts.get(phrase);
  if (!account) {
    account = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase)).derive(DEPOSIT_ACCOUNT_PATH);
    accounts.set(phrase, account);
  }
  const key = account.deriveChild(index).privateKey;
  if (!key) throw new Error(`no private key at ${DEPOSIT_ACCOUNT_PATH}/${index}`);
  return privateKeyToAccount(bytesToHex(key));
}
