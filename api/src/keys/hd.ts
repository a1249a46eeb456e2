// HD key helpers: the deposit account's xpub (for the API) and its mnemonic (for the worker only).
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { DEPOSIT_ACCOUNT_PATH } from '@store/shared/deposit-address';

/** A new 24-word BIP-39 mnemonic. */
export function newMnemonic(): string {
  return generateMnemonic(wordlist, 256);
}

/** Whether a phrase is a valid English BIP-39 mnemonic. */
export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(mnemonic.trim(), wordlist);
}

/** The extended public key of the deposit account: enough to derive every deposit address. */
export function depositXpubFromMnemonic(mnemonic: string): string {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic.trim()));
  return root.derive(DEPOSIT_ACCOUNT_PATH).publicExtendedKey;
}
