// The EIP-681 request of a USDC transfer on the deployment's chain: the payment pages' QR code and
// 'Open in wallet' link, and a merchant's refund sent from any wallet.
import { isEthereumAddress, type Usdc } from '@store/shared';
import { usdcTransferUri } from '@store/shared/eip681';
import type { ChainInfo } from './chain-info.ts';

/**
 * The EIP-681 URI of a USDC transfer of `amount` to `to`; undefined until the API has named the
 * chain (a request for the wrong chain would send money where it is not seen) or without an
 * address or an amount.
 */
export function paymentUri(
  chain: ChainInfo,
  to: string | undefined,
  amount: Usdc | undefined,
): string | undefined {
  if (!chain.loaded || !to || !amount || amount <= 0n) return undefined;
  if (!isEthereumAddress(chain.usdc) || !isEthereumAddress(to)) return undefined;
  return usdcTransferUri({ usdc: chain.usdc, chainId: chain.chainId, to, amount });
}
