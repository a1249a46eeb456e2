// The worker's side of deposit addresses: the signing account of each, from the mnemonic (which
// never reaches the API). The addresses themselves are derived from the xpub alone, in
// @store/shared/deposit-address, by the API and the indexer alike.
import { depositPath } from '@store/shared/deposit-address';
import type { HDAccount } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

/** Worker side: the signing account of deposit address `index` (the mnemonic never reaches the API). */
export function depositAccount(mnemonic: string, index: number): HDAccount {
  return mnemonicToAccount(mnemonic.trim(), { path: depositPath(index) as `m/44'/60'/${string}` });
}
