// Local-mode keys and database role passwords: generated once into the data folder, then reused.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATABASE_ROLES, type DatabaseRole } from '@store/api/db/client';
import { depositXpubFromMnemonic, newMnemonic } from '@store/api/keys/hd';
import { newWebhookKeyPair, webhookPublicKeyOf } from '@store/api/webhooks/signing';
import { toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { LOCAL_ACCOUNT_INDEX, localAccount } from './usdc.ts';

/** Keys of a local installation. Never use these on a real chain. */
export interface LocalKeys {
  paymentMnemonic: string;
  paymentXpub: string;
  relayerPrivateKey: `0x${string}`;
  relayerAddress: `0x${string}`;
  treasuryPrivateKey: `0x${string}`;
  treasuryAddress: `0x${string}`;
  /** The platform's Ed25519 webhook key (whsk_…) and its public half (whpk_…). */
  webhookSigningKey: string;
  webhookPublicKey: string;
}

interface StoredKeys {
  paymentMnemonic: string;
  treasuryPrivateKey: `0x${string}`;
  webhookSigningKey?: string;
}

/** Reads `keys.json` from `dataDir`, creating it on first use; `created` tells which. */
export async function loadOrCreateLocalKeys(
  dataDir: string,
): Promise<{ keys: LocalKeys; created: boolean; file: string }> {
  const file = join(dataDir, 'keys.json');
  const created = !existsSync(file);
  let stored: StoredKeys;
  if (created) {
    stored = {
      paymentMnemonic: newMnemonic(),
      treasuryPrivateKey: generatePrivateKey(),
      webhookSigningKey: newWebhookKeyPair().secretKey,
    };
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  } else {
    stored = JSON.parse(await readFile(file, 'utf8')) as StoredKeys;
  }
  // Note: a keys file from before webhooks gets its key added, keeping the other keys.
  let webhookSigningKey = stored.webhookSigningKey;
  if (!webhookSigningKey) {
    webhookSigningKey = newWebhookKeyPair().secretKey;
    stored = { ...stored, webhookSigningKey };
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
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
      webhookSigningKey,
      webhookPublicKey: webhookPublicKeyOf(webhookSigningKey),
    },
  };
}

/**
 * Passwords of the database roles (API, worker, indexer, analyst) of a local installation: read
 * from `database-roles.json` in `dataDir`, generated once (and for any role added since).
 */
export async function loadOrCreateRolePasswords(
  dataDir: string,
): Promise<{ passwords: Record<DatabaseRole, string>; file: string }> {
  const file = join(dataDir, 'database-roles.json');
  const stored: Partial<Record<DatabaseRole, string>> = existsSync(file)
    ? JSON.parse(await readFile(file, 'utf8'))
    : {};
  const passwords = { ...stored } as Record<DatabaseRole, string>;
  const roles = Object.keys(DATABASE_ROLES) as DatabaseRole[];
  for (const role of roles) passwords[role] ??= randomBytes(24).toString('hex');
  if (roles.some((role) => stored[role] === undefined)) {
    await writeFile(file, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
  }
  return { passwords, file };
}

/**
 * The deposit xpub of the API-only tests: from a public BIP-39 test mnemonic, not anvil's. Note:
 * anvil's accounts are that mnemonic's first addresses, so with anvil's seed the ninth deposit
 * address a test file made was anvil account 8, a payee the tests use, and its orders were then
 * refused as paying a deposit address.
 */
export const TEST_XPUB = depositXpubFromMnemonic(
  'legal winner thank year wave sausage worth useful legal winner thank yellow',
);
