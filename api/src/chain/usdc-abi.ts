// The part of Circle's FiatToken (USDC) interface the product uses; the same on Base and locally.
import { usdcDomainNameOf } from '@store/shared';
import { type Address, encodeFunctionData, type Hex, type LocalAccount, parseAbi } from 'viem';

/** USDC (FiatTokenV2_2) functions and events used by the api and the worker. */
export const usdcAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function version() pure returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function nonces(address owner) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
]);

/** EIP-712 types of an EIP-3009 `transferWithAuthorization` message. */
export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** An EIP-3009 transfer its `from` account authorizes: what it signs. */
export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/** The signature of `account` (the authorization's `from`) on a transfer of USDC at `usdc`. */
export function signTransferAuthorization(
  account: LocalAccount,
  chainId: number,
  usdc: Address,
  message: TransferAuthorization,
): Promise<Hex> {
  return account.signTypedData({
    domain: usdcDomain(chainId, usdc),
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message,
  });
}

/** The token call that makes a signed authorization's transfer (anyone may send it). */
export function transferWithAuthorizationData(message: TransferAuthorization, signature: Hex): Hex {
  return encodeFunctionData({
    abi: usdcAbi,
    functionName: 'transferWithAuthorization',
    args: [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      signature,
    ],
  });
}

/** EIP-712 types of an EIP-3009 `cancelAuthorization` message. */
export const cancelAuthorizationTypes = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** EIP-712 domain of USDC on a chain: name "USD Coin", version "2" (Base and the local token). */
export function usdcDomain(chainId: number, usdc: `0x${string}`) {
  // Note: the domain name differs by chain ("USDC" on Base Sepolia): a wrong one makes every
  // authorization an invalid signature.
  return {
    name: usdcDomainNameOf(chainId),
    version: '2',
    chainId,
    verifyingContract: usdc,
  } as const;
}

/** USDC has 6 decimals: 1_000_000n base units are one dollar. */
export const USDC_DECIMALS = 6;
