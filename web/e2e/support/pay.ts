// Pays a deposit address from an anvil test account (accounts 1-9 hold 10,000 test USDC).
import type { StackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { createWalletClient, http, parseAbi, parseUnits, publicActions } from 'viem';
import { foundry } from 'viem/chains';

const erc20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);

/** Sends `amountUsdc` (a decimal string) to `to` and waits for the receipt; returns the tx hash. */
export async function payUsdc(
  stack: Pick<StackInfo, 'rpcUrl' | 'chainId' | 'usdc'>,
  to: string,
  amountUsdc: string,
  fromAccount = 1,
): Promise<string> {
  const client = createWalletClient({
    account: localAccount(fromAccount),
    chain: { ...foundry, id: stack.chainId },
    transport: http(stack.rpcUrl),
  }).extend(publicActions);
  const hash = await client.writeContract({
    address: stack.usdc,
    abi: erc20,
    functionName: 'transfer',
    args: [to as `0x${string}`, parseUnits(amountUsdc, 6)],
  });
  // Note: polled every 50 ms, not viem's 4 s: the page learns of the payment within a block.
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`USDC transfer ${hash} reverted`);
  return hash;
}

/**
 * The payment page's badge once a payment is seen: 'Payment Detected' while it is short of the
 * depth, 'Payment Confirmed' at depth (the page may move on before the depth is reached).
 */
export const PAYMENT_SEEN_BADGE = /^Payment (Detected|Confirmed)$/;
/** The heading of the same moment. */
export const PAYMENT_SEEN_HEADING = /^Payment (detected|Confirmed)$/;
