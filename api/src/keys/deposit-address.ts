// Deposit addresses: the API derives them from the account's extended PUBLIC key alone; only the
// worker can derive their private keys (from the mnemonic), to forward what they receive.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { type Address, bytesToHex, type HDAccount } from 'viem';
import { mnemonicToAccount, publicKeyToAddress } from 'viem/accounts';
import { DEPOSIT_ACCOUNT_PATH } from './hd.ts';

/** A derived deposit address and the full BIP-32 path of its key. */
export interface DepositAddress {
  index: number;
  address: Address;
  path: string;
}

// Note: testnet extended keys (tpub) carry other version bytes; the derivation is the same.
const TESTNET_VERSIONS = { private: 0x04358394, public: 0x043587cf };

/** Full path of deposit address `index`. */
export function depositPath(index: number): string {
  return `${DEPOSIT_ACCOUNT_PATH}/${index}`;
}

// The deposit account m/44'/60'/0'/0 is four levels below the master key.
const DEPOSIT_ACCOUNT_DEPTH = DEPOSIT_ACCOUNT_PATH.split('/').length - 1;

/**
 * Parses the xpub once and returns a function deriving deposit address n (non-hardened child n).
 * Note: an xpub of another depth (say the account m/44'/60'/0') derives addresses the worker
 * cannot sign for, so their deposits could never be forwarded: it is refused here.
 */
export function depositAddressDeriver(xpub: string): (index: number) => DepositAddress {
  const account = HDKey.fromExtendedKey(
    xpub,
    xpub.startsWith('tpub') ? TESTNET_VERSIONS : undefined,
  );
  if (account.depth !== DEPOSIT_ACCOUNT_DEPTH) {
    throw new Error(
      `the extended public key is at depth ${account.depth}; the deposit account ${DEPOSIT_ACCOUNT_PATH} is at depth ${DEPOSIT_ACCOUNT_DEPTH}`,
    );
  }
  return (index) => {
    if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
      throw new RangeError(`deposit index out of range: ${index}`);
    }
    const compressed = account.deriveChild(index).publicKey;
    if (!compressed) throw new Error('the extended key has no public key');
    // Note: an Ethereum address hashes the uncompressed point (without its 0x04 prefix byte).
    const uncompressed = secp256k1.Point.fromBytes(compressed).toBytes(false);
    return {
      index,
      address: publicKeyToAddress(bytesToHex(uncompressed)),
      path: depositPath(index),
    };
  };
}

/** Worker side: the signing account of deposit address `index` (the mnemonic never reaches the API). */
export function depositAccount(mnemonic: string, index: number): HDAccount {
  return mnemonicToAccount(mnemonic.trim(), { path: depositPath(index) as `m/44'/60'/${string}` });
}
