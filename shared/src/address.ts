// Ethereum address and URL checks shared by the schemas and the checkout URL codec.

/** 0x followed by 40 hexadecimal characters (any case; no checksum check). */
export const ETHEREUM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** True for 0x plus 40 hex characters. */
export function isEthereumAddress(value: string): boolean {
  return ETHEREUM_ADDRESS_PATTERN.test(value);
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
