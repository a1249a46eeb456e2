// Deposit addresses: derived from the deposit account's extended PUBLIC key alone, by the API (to
// hand them out) and the indexer (to know which transfers are ours); only the worker derives their
// private keys (from the mnemonic), to forward what they receive. Not exported from index.ts: the
// web app needs none of it (and none of its curve code).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { HDKey } from '@scure/bip32';
import { checksumAddress } from './address-checksum.ts';

/** BIP-44 account path of Ethereum addresses; deposit address n is `${DEPOSIT_ACCOUNT_PATH}/n`. */
export const DEPOSIT_ACCOUNT_PATH = "m/44'/60'/0'/0";

/** A derived deposit address (EIP-55 checksummed) and the full BIP-32 path of its key. */
export interface DepositAddress {
  index: number;
  address: `0x${string}`;
  path: string;
}

// Note: testnet extended keys (tpub) carry other version bytes; the derivation is the same.
const TESTNET_VERSIONS = { private: 0x04358394, public: 0x043587cf };

// The deposit account m/44'/60'/0'/0 is four levels below the master key.
const DEPOSIT_ACCOUNT_DEPTH = DEPOSIT_ACCOUNT_PATH.split('/').length - 1;

/** Full path of deposit address `index`. */
export function depositPath(index: number): string {
  return `${DEPOSIT_ACCOUNT_PATH}/${index}`;
}

const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

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
    // An Ethereum address: the last 20 bytes of the keccak-256 hash of the uncompressed point
    // without its 0x04 prefix byte.
    const point = secp256k1.Point.fromBytes(compressed).toBytes(false).subarray(1);
    const hash = keccak_256(point);
    return {
      index,
      address: checksumAddress(`0x${toHex(hash.subarray(12))}`),
      path: depositPath(index),
    };
  };
}
