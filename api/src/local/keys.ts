// Local-mode keys: generated once into the data folder, then reused on every start.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { depositXpubFromMnemonic, newMnemonic } from '../keys/hd.ts';
import { LOCAL_ACCOUNT_INDEX, localAccount } from './usdc.ts';

/** Keys of a local installation. Never use these on a real chain. */
export interface LocalKeys {
  paymentMnemonic: string;
  paymentXpub: string;
  relayerPrivateKey: `0x${string}`;
  relayerAddress: `0x${string}`;
  treasuryPrivateKey: `0x${string}`;
  treasuryAddress: `0x${string}`;
}

interface StoredKeys {
  paymentMnemonic: string;
  treasuryPrivateKey: `0x${string}`;
}

/** Reads `keys.json` from `dataDir`, creating it on first use; `created` tells which. */
export async function loadOrCreateLocalKeys(
  dataDir: string,
): Promise<{ keys: LocalKeys; created: boolean; file: string }> {
  const file = join(dataDir, 'keys.json');
  const created = !existsSync(file);
  let stored: StoredKeys;
  if (created) {
    stored = { paymentMnemonic: newMnemonic(), treasuryPrivateKey: generatePrivateKey() };
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  } else {
    stored = JSON.parse(await readFile(file, 'utf8')) as StoredKeys;
  }
  // Note: the relayer is one of anvil's funded accounts, so it can pay gas from the first block.
  const relayer = localAccount(LOCAL_ACCOUNT_INDEX.relayer);
  const relayerPrivateKey = toHex(relayer.getHdKey().privateKey ?? new Uint8Array());
  return {
    created,
    file,
    keys: {
      paymentMnemonic: stored.paymentMnemonic,
      paymentXpub: depositXpubFromMnemonic(stored.paymentMnemonic),
      relayerPrivateKey,
      relayerAddress: relayer.address,
      treasuryPrivateKey: stored.treasuryPrivateKey,
      treasuryAddress: privateKeyToAccount(stored.treasuryPrivateKey).address,
    },
  };
}
