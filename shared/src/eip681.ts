// EIP-681 payment request URIs for the payment pages' QR code and 'Open in wallet' link: a call of
// USDC's `transfer(address,uint256)` on the settlement chain, so a wallet that scans or opens it
// prefills token, chain, recipient and the exact amount in base units.
import { isEthereumAddress } from './address.ts';
import type { Usdc } from './money.ts';

/** What a USDC transfer request names. */
export interface UsdcTransferRequest {
  /** The USDC contract on `chainId`. */
  usdc: string;
  chainId: number;
  /** The deposit address that receives the USDC. */
  to: string;
  /** The amount in USDC base units (6 decimals). */
  amount: Usdc;
}

/**
 * `ethereum:<usdc>@<chainId>/transfer?address=<to>&uint256=<amount>`. Throws on a malformed
 * address, chain id or amount: a wrong URI would send money where it cannot be credited.
 * Note: the amount is written as plain decimal digits (no `e` notation), which every wallet reads.
 */
export function usdcTransferUri(request: UsdcTransferRequest): string {
  if (!isEthereumAddress(request.usdc)) throw new Error(`Not a token address: ${request.usdc}`);
  if (!isEthereumAddress(request.to)) throw new Error(`Not a recipient address: ${request.to}`);
  if (!Number.isSafeInteger(request.chainId) || request.chainId <= 0) {
    throw new Error(`Not a chain id: ${request.chainId}`);
  }
  if (request.amount <= 0n) throw new Error(`Not an amount to pay: ${request.amount}`);
  return `ethereum:${request.usdc}@${request.chainId}/transfer?address=${request.to}&uint256=${request.amount.toString()}`;
}

/** The parts of a USDC transfer URI made by `usdcTransferUri`; undefined for anything else. */
export function parseUsdcTransferUri(uri: string): UsdcTransferRequest | undefined {
  const match =
    /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(
      uri,
    );
  if (!match) return undefined;
  const [, usdc, chainId, to, amount] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  return { usdc, chainId: Number(chainId), to, amount: BigInt(amount) };
}
