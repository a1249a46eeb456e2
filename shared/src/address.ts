// Ethereum address and URL checks shared by the schemas and the checkout URL codec.
import { keccak_256 } from '@noble/hashes/sha3.js';

/** 0x followed by 40 hexadecimal characters (any case; no checksum check). */
export const ETHEREUM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** True for 0x plus 40 hex characters. */
export function isEthereumAddress(value: string): boolean {
  return ETHEREUM_ADDRESS_PATTERN.test(value);
}

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

/** The zero address: a payout there is burned. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** True for the zero address in any case. */
export function isZeroAddress(value: string): boolean {
  return value.toLowerCase() === ZERO_ADDRESS;
}

/** Hex colour with # and 3 or 6 digits, as the store form accepts. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** True for #abc or #aabbcc (any case). */
export function isHexColor(value: string): boolean {
  return HEX_COLOR_PATTERN.test(value);
}

/** True for an absolute http: or https: URL. Note: rejects javascript: and data: so a returnUrl cannot run script. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
