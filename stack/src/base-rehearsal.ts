// A local chain that looks like Base (or Base Sepolia) to the product: anvil with Base's chain id
// at Base's pace (0.2 s blocks), and Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy, linked to
// SignatureChecker) at the REAL USDC address of that chain, so the product runs against it with a
// deployment's settings (no USDC_ADDRESS, keys from the environment, LOCAL_MODE=false).
//
// How the token gets to Circle's address: the library, the implementation and a proxy are deployed
// as `deployLocalUsdc` does, then the proxy's runtime code is put at the Base address with
// `anvil_setCode`, its two storage slots (implementation and admin, AdminUpgradeabilityProxy's
// keccak256("org.zeppelinos.proxy.implementation") and keccak256("org.zeppelinos.proxy.admin")) are
// copied with `anvil_setStorageAt`, and the initializers, the minter and the mints are sent to the
// Base address. The proxy at its deploy address is then emptied, so only one USDC exists.
//
// `bun run rehearse:base` starts one for manual runs (CHAIN_ID=84532 for Base Sepolia, ANVIL_PORT).
import { BASE_CHAIN_ID, BASE_SEPOLIA_CHAIN_ID, networks } from '@store/api/chain/networks';
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem';
import type { HDAccount } from 'viem/accounts';
import { type Anvil, startAnvil } from './anvil.ts';
import {
  adminAbi,
  LOCAL_ACCOUNT_INDEX,
  loadArtifact,
  localAccount,
  localUsdcAddresses,
  type Send,
  sendInitialization,
  sendLibraryAndImplementation,
  TEST_ACCOUNT_INDEXES,
  TEST_ACCOUNT_USDC,
  waitForAll,
} from './usdc.ts';

/** The chains a rehearsal can look like. */
export type RehearsalChainId = typeof BASE_CHAIN_ID | typeof BASE_SEPOLIA_CHAIN_ID;

/**
 * The token's name (and EIP-712 domain name, version "2") of Circle's USDC on each chain: "USD Coin"
 * on Base, "USDC" on Base Sepolia, so EIP-3009 signatures are checked as the real tokens do.
 */
export const USDC_TOKEN_NAME: Record<RehearsalChainId, string> = {
  [BASE_CHAIN_ID]: 'USD Coin',
  [BASE_SEPOLIA_CHAIN_ID]: 'USDC',
};

/** AdminUpgradeabilityProxy's slots: keccak256("org.zeppelinos.proxy.implementation"), ".admin". */
export const PROXY_IMPLEMENTATION_SLOT =
  '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3';
export const PROXY_ADMIN_SLOT =
  '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b';

/** A running rehearsal chain. */
export type BaseRehearsalChain = {
  chainId: RehearsalChainId;
  rpcUrl: string;
  wsUrl: string;
  /** Circle's USDC address of the chain (from `networks`), where the token now lives. */
  usdc: Address;
  /** Block of the token's first initializer at `usdc`: the deployment's USDC_START_BLOCK. */
  usdcStartBlock: bigint;
  /** Anvil's accounts 1..9 (mnemonic `test test … junk`): 10,000 ETH and 10,000 USDC each. */
  testAccounts: { index: number; address: Address }[];
  anvil: Anvil;
  /** Sets `address`'s ETH balance (a relayer must hold ETH on the rehearsal chain). */
  setEthBalance(address: Address, wei: bigint): Promise<void>;
  stop(): Promise<void>;
};

/** Options of `startBaseRehearsalChain`. */
export type BaseRehearsalOptions = {
  chainId: RehearsalChainId;
  port: number;
  /** Seconds between blocks; 0.2 (Base's pace) by default. */
  blockTime?: number;
};

/** Starts anvil as `chainId` and puts Circle's USDC at that chain's real USDC address. */
export async function startBaseRehearsalChain(
  options: BaseRehearsalOptions,
): Promise<BaseRehearsalChain> {
  const { chainId } = options;
  const usdc = networks[chainId].usdc as Address;
  const anvil = await startAnvil({
    port: options.port,
    chainId,
    blockTime: options.blockTime ?? 0.2,
  });
  try {
    const setup = await setUpUsdcAt(anvil.rpcUrl, chainId, usdc);
    const test = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) });
    return {
      chainId,
      rpcUrl: anvil.rpcUrl,
      wsUrl: anvil.wsUrl,
      usdc,
      usdcStartBlock: setup.startBlock,
      testAccounts: TEST_ACCOUNT_INDEXES.map((index) => ({
        index,
        address: localAccount(index).address,
      })),
      anvil,
      setEthBalance: (address, value) => test.setBalance({ address, value }),
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** Deploys the token's parts, moves the proxy to `usdc`, initializes it there and mints. */
async function setUpUsdcAt(rpcUrl: string, chainId: RehearsalChainId, usdc: Address) {
  // Note: a plain chain of this id for the set-up's own transactions (the product uses viem's
  // `base` / `baseSepolia` definitions).
  const chain = defineChain({
    id: chainId,
    name: `rehearsal-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const client = createPublicClient({ chain, transport }) as PublicClient;
  const test = createTestClient({ chain, mode: 'anvil', transport });
  const addresses = localUsdcAddresses();
  const roles = {
    deployer: localAccount(LOCAL_ACCOUNT_INDEX.deployer),
    proxyAdmin: localAccount(LOCAL_ACCOUNT_INDEX.proxyAdmin),
    owner: localAccount(LOCAL_ACCOUNT_INDEX.tokenOwner),
    minter: localAccount(LOCAL_ACCOUNT_INDEX.minter),
  };
  for (const account of Object.values(roles)) {
    await test.setBalance({ address: account.address, value: parseEther('100') });
  }
  const fees = await client.estimateFeesPerGas();
  const sender =
    (account: HDAccount): Send =>
    (nonce, tx) =>
      createWalletClient({ account, chain, transport }).sendTransaction({ ...tx, nonce, ...fees });

  await waitForAll(client, sendLibraryAndImplementation(sender(roles.deployer), addresses));
  const proxyCode = encodeDeployData({
    abi: adminAbi,
    bytecode: loadArtifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json').bytecode,
    args: [addresses.implementation],
  });
  await waitForAll(client, [sender(roles.proxyAdmin)(0, { data: proxyCode, gas: 1_000_000n })]);

  const runtime = await client.getCode({ address: addresses.usdc });
  if (!runtime) throw new Error('rehearsal: the FiatTokenProxy was not deployed');
  await test.setCode({ address: usdc, bytecode: runtime });
  for (const slot of [PROXY_IMPLEMENTATION_SLOT, PROXY_ADMIN_SLOT] as const) {
    const value = (await client.getStorageAt({ address: addresses.usdc, slot })) as Hex;
    await test.setStorageAt({ address: usdc, index: slot, value });
  }
  // Note: only one USDC on the chain, at Circle's address.
  await test.setCode({ address: addresses.usdc, bytecode: '0x' });

  const [initialized] = await waitForAll(
    client,
    sendInitialization(sender(roles.owner), usdc, roles, USDC_TOKEN_NAME[chainId]),
  );
  const mint = sender(roles.minter);
  await waitForAll(
    client,
    TEST_ACCOUNT_INDEXES.map((index, nonce) =>
      mint(nonce, {
        to: usdc,
        data: encodeFunctionData({
          abi: adminAbi,
          functionName: 'mint',
          args: [localAccount(index).address, TEST_ACCOUNT_USDC],
        }),
        gas: 200_000n,
      }),
    ),
  );
  if (!initialized) throw new Error('rehearsal: USDC was not initialized');
  return { startBlock: initialized.blockNumber };
}

if (import.meta.main) {
  const chainId = Number(process.env.CHAIN_ID ?? BASE_CHAIN_ID);
  if (chainId !== BASE_CHAIN_ID && chainId !== BASE_SEPOLIA_CHAIN_ID) {
    throw new Error(`CHAIN_ID must be ${BASE_CHAIN_ID} or ${BASE_SEPOLIA_CHAIN_ID}`);
  }
  const port = Number(process.env.ANVIL_PORT ?? 8545);
  const rehearsal = await startBaseRehearsalChain({ chainId, port });
  console.log(
    [
      `Base rehearsal chain ${chainId} (anvil, 0.2 s blocks)`,
      `  RPC_URL=${rehearsal.rpcUrl}`,
      `  WS_URL=${rehearsal.wsUrl}`,
      `  CHAIN_ID=${chainId}`,
      `  USDC_START_BLOCK=${rehearsal.usdcStartBlock}`,
      `  USDC (Circle FiatTokenV2_2) at ${rehearsal.usdc}`,
      `  anvil accounts 1-9 (mnemonic "test test … junk") hold 10,000 USDC each`,
      '  give the relayer ETH: cast rpc anvil_setBalance <relayer> 0x56bc75e2d63100000',
      'Ctrl-C stops it.',
    ].join('\n'),
  );
  const stop = async () => {
    await rehearsal.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
