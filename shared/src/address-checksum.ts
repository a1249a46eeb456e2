// EIP-55 checksums of Ethereum addresses (keccak-256).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { isEthereumAddress } from './address.ts';

/**
 * True when an address's letter case agrees with its EIP-55 checksum: all-lowercase and
 * all-uppercase addresses carry none and pass; a mixed-case one passes only when every letter's
 * case is the checksum's (a mistyped character then fails). False for anything but 0x + 40 hex.
 */
export function hasValidChecksum(value: string): boolean {
  if (!isEthereumAddress(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  const hash = keccak_256(new TextEncoder().encode(hex.toLowerCase()));
  for (let i = 0; i < 40; i++) {
    const char = hex.charAt(i);
    if (char >= '0' && char <= '9') continue;
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    if (nibble >= 8 !== (char === char.toUpperCase())) return false;
  }
  return true;
}

/** The EIP-55 form of an address (0x + 40 hex, any case): each letter's case set by the checksum. */
export function checksumAddress(value: string): `0x${string}` {
  if (!isEthereumAddress(value)) throw new Error(`not an address: ${value}`);
  const hex = value.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const char = hex.charAt(i);
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out as `0x${string}`;
}
