// Which forwarding failures stop an order (a person must look) and which are the relayer's own
// trouble (retried without counting): fed the errors viem REALLY throws, produced against a real
// anvil (a nonce too low, no ETH, an underpriced replacement, an already-known transaction, a fee
// under the base fee, a receipt that never comes), never hand-made `new Error('nonce too low')`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type Anvil, startAnvil } from '@store/stack/anvil';
import { freePort } from '@store/stack/ports';
import { localAccount } from '@store/stack/usdc';
import {
  type Account,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import {
  broadcast,
  type ForwardingChain,
  NonceLock,
  type SignedTx,
  sendFromRelayer,
} from '../payments/forwarding-chain.ts';
import { isAlreadyKnown, nodeRefused, relayerTrouble } from '../payments/relayer.ts';
import { isConnectionError, isRelayerError } from './forwarding-loop.ts';

let anvil: Anvil;
let client: PublicClient;
const rich = localAccount(3);

const rpc = (method: string, params: unknown[]) =>
  client.request({ method: method as 'eth_chainId', params: params as never });

/** The error a promise rejects with (fails the test if it resolves). */
async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A signed 0-value transfer of `account` to itself. */
async function signed(
  account: Account & { signTransaction: NonNullable<Account['signTransaction']> },
  nonce: number,
  fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<Hex> {
  const estimate = fees ?? (await client.estimateFeesPerGas());
  return account.signTransaction({
    type: 'eip1559',
    chainId: foundry.id,
    to: account.address,
    value: 0n,
    gas: 21_000n,
    nonce,
    maxFeePerGas: estimate.maxFeePerGas,
    maxPriorityFeePerGas: estimate.maxPriorityFeePerGas,
  });
}

/** The forwarding chain of `relayer` on the test's anvil (rich's address as token and treasury). */
function relayerChain(
  relayer: ForwardingChain['relayer'],
  over: PublicClient = client,
): ForwardingChain {
  return {
    client: over,
    rpcUrl: anvil.rpcUrl,
    chainId: foundry.id,
    token: rich.address,
    relayer,
    treasury: rich.address,
    relayerLock: new NonceLock(),
  };
}

beforeAll(async () => {
  anvil = await startAnvil({ port: await freePort(), blockTime: 0.2 });
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl), cacheTime: 0 });
}, 30_000);

afterAll(async () => {
  await anvil?.stop();
});

describe("the relayer's trouble, as viem throws it", () => {
  test('no ETH for gas (a raw transaction the node refuses)', async () => {
    const broke = privateKeyToAccount(generatePrivateKey());
    const error = await errorOf(
      client.sendRawTransaction({ serializedTransaction: await signed(broke, 0) }),
    );
    // What the old text match read: viem's shortMessage hides the node's words.
    expect((error as { shortMessage: string }).shortMessage).toBe('Transaction creation failed.');
    expect(isRelayerError(error)).toBe(true);
    expect(relayerTrouble(error)).toMatch(
      /^the relayer is out of ETH for gas \(insufficient funds/,
    );
    expect(nodeRefused(error)).toBe(true);
    expect(isConnectionError(error)).toBe(false);
  });

  test('no ETH for gas (a wallet client, InsufficientFundsError)', async () => {
    const broke = privateKeyToAccount(generatePrivateKey());
    const wallet = createWalletClient({
      account: broke,
      chain: foundry,
      transport: http(anvil.rpcUrl),
    });
    const error = await errorOf(wallet.sendTransaction({ to: rich.address, value: 1n }));
    expect(isRelayerError(error)).toBe(true);
    expect(relayerTrouble(error)).toMatch(/out of ETH/);
  });

  test('a nonce too low, raw and through a wallet client (NonceTooLowError)', async () => {
    const wallet = createWalletClient({
      account: rich,
      chain: foundry,
      transport: http(anvil.rpcUrl),
    });
    const hash = await wallet.sendTransaction({ to: rich.address, value: 0n });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const raw = await errorOf(
      client.sendRawTransaction({ serializedTransaction: await signed(rich, 0) }),
    );
    expect((raw as { shortMessage: string }).shortMessage).toBe('Transaction creation failed.');
    expect(relayerTrouble(raw)).toMatch(
      /^its nonce was already used \(nonce race\) \(nonce too low\)/,
    );
    const viaWallet = await errorOf(
      wallet.sendTransaction({ to: rich.address, value: 0n, nonce: 0 }),
    );
    expect(isRelayerError(viaWallet)).toBe(true);
    expect(relayerTrouble(viaWallet)).toMatch(/nonce race/);
  });

  test('a fee under the base fee', async () => {
    const nonce = await client.getTransactionCount({ address: rich.address });
    const raw = await signed(rich, nonce, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    const error = await errorOf(client.sendRawTransaction({ serializedTransaction: raw }));
    expect(relayerTrouble(error)).toMatch(/^its fee is below the base fee/);
  });

  describe('with mining paused', () => {
    beforeAll(() => rpc('evm_setIntervalMining', [0]));
    afterAll(() => rpc('evm_setIntervalMining', [1])); // whole seconds only

    test('an underpriced replacement, an already-known transaction, a receipt that never comes', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await rpc('anvil_setBalance', [account.address, `0x${parseEther('1').toString(16)}`]);
      const fees = await client.estimateFeesPerGas();
      const first = await signed(account, 0, fees);
      await client.sendRawTransaction({ serializedTransaction: first });

      const known = await errorOf(client.sendRawTransaction({ serializedTransaction: first }));
      expect(isAlreadyKnown(known)).toBe(true);
      expect(relayerTrouble(known)).toMatch(/^the node already has its transaction/);
      await broadcast(client, first); // not an error for the worker

      const other = await account.signTransaction({
        type: 'eip1559',
        chainId: foundry.id,
        to: rich.address,
        value: 1n,
        gas: 21_000n,
        nonce: 0,
        ...fees,
      });
      const underpriced = await errorOf(
        client.sendRawTransaction({ serializedTransaction: other }),
      );
      expect((underpriced as { shortMessage: string }).shortMessage).toBe(
        'Transaction creation failed.',
      );
      expect(isRelayerError(underpriced)).toBe(true);
      expect(relayerTrouble(underpriced)).toMatch(/^a replacement was underpriced/);
      expect(isAlreadyKnown(underpriced)).toBe(false);

      const timeout = await errorOf(
        client.waitForTransactionReceipt({
          hash: keccak256(first),
          timeout: 300,
          pollingInterval: 50,
        }),
      );
      expect(relayerTrouble(timeout)).toBe('its transaction was not mined in time');
    });
  });
});

describe("an order's own failures", () => {
  test('a revert is not the relayer: it counts toward the attempts', async () => {
    const reverter = privateKeyToAccount(generatePrivateKey()).address;
    await rpc('anvil_setCode', [reverter, '0x60006000fd']); // PUSH1 0 PUSH1 0 REVERT
    const error = await errorOf(client.estimateGas({ account: rich, to: reverter, data: '0x01' }));
    expect(isRelayerError(error)).toBe(false);
    expect(isConnectionError(error)).toBe(false);
    expect(nodeRefused(error)).toBe(true);
  });

  test('an unreachable node is a connection error, and not a refusal', async () => {
    const down = createPublicClient({ transport: http(`http://127.0.0.1:${await freePort()}`) });
    const error = await errorOf(
      down.sendRawTransaction({ serializedTransaction: await signed(rich, 0) }),
    );
    expect(isConnectionError(error)).toBe(true);
    expect(isRelayerError(error)).toBe(false);
    expect(nodeRefused(error)).toBe(false);
  });

  test('plain errors of our own are not the relayer', () => {
    expect(isRelayerError(new Error('0xabc holds none of the USDC recorded as received'))).toBe(
      false,
    );
  });
});

describe('sendFromRelayer', () => {
  test('a transaction the node refuses is forgotten: the next one does not inherit a dead record', async () => {
    const broke = privateKeyToAccount(generatePrivateKey());
    const chain = relayerChain(broke);
    const records = new Map<string, SignedTx>();
    const recordFor = (leg: string) => ({
      save: async (tx: SignedTx) => {
        records.set(leg, tx);
      },
      forget: async (tx: SignedTx) => {
        if (records.get(leg)?.hash === tx.hash) records.delete(leg);
      },
    });
    for (const leg of ['merchant', 'fee']) {
      const error = await errorOf(sendFromRelayer(chain, { to: rich.address }, recordFor(leg)));
      expect(relayerTrouble(error)).toMatch(/out of ETH/);
    }
    expect([...records.keys()]).toEqual([]);

    // Funded, each leg gets its own nonce from the chain.
    await rpc('anvil_setBalance', [broke.address, `0x${parseEther('1').toString(16)}`]);
    const merchant = await sendFromRelayer(chain, { to: rich.address }, recordFor('merchant'));
    const fee = await sendFromRelayer(chain, { to: rich.address }, recordFor('fee'));
    expect([merchant.nonce, fee.nonce]).toEqual([0, 1]);
    expect(records.get('merchant')).toEqual(merchant);
    await client.waitForTransactionReceipt({ hash: fee.hash, pollingInterval: 50 });
  });

  test('sends asked for at once go as one group: consecutive nonces, each recorded before any is broadcast', async () => {
    const relayer = privateKeyToAccount(generatePrivateKey());
    await rpc('anvil_setBalance', [relayer.address, `0x${parseEther('1').toString(16)}`]);
    const chain = relayerChain(relayer);
    const events: string[] = [];
    const records = new Map<string, SignedTx>();
    const recordFor = (leg: string, fails = false) => ({
      save: async (tx: SignedTx) => {
        if (fails) throw new Error(`the database refused ${leg}`);
        records.set(leg, tx);
        // Note: whether the node already has it when it is recorded.
        const known = await client.getTransaction({ hash: tx.hash }).catch(() => null);
        events.push(`saved ${leg}${known ? ' (already broadcast!)' : ''}`);
      },
      forget: async (tx: SignedTx) => {
        if (records.get(leg)?.hash === tx.hash) records.delete(leg);
        events.push(`forgot ${leg}`);
      },
    });
    const send = (leg: string, value = 0n, fails = false) =>
      sendFromRelayer(chain, { to: rich.address, value }, recordFor(leg, fails));

    // A send the node refuses (more ETH than the relayer has) is refused alone: the sends after it
    // in its group are forgotten and go again at the next nonces, so no nonce is left empty.
    const results = await Promise.allSettled([
      send('a'),
      send('b'),
      send('too much', parseEther('1000')),
      send('c'),
      send('d'),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const sent = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(sent.map((tx) => tx.nonce)).toEqual([0, 1, 2, 3]);
    expect(events.slice(0, 5).sort()).toEqual([
      'saved a',
      'saved b',
      'saved c',
      'saved d',
      'saved too much',
    ]);
    // Note: the refused send and its followers are forgotten in nonce order, before the followers
    // are saved again (their saves run at once, in any order).
    expect(events.slice(5, 8)).toEqual(['forgot too much', 'forgot c', 'forgot d']);
    expect(events.slice(8).sort()).toEqual(['saved c', 'saved d']);
    expect([...records.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
    await client.waitForTransactionReceipt({ hash: sent[3]?.hash as Hex, pollingInterval: 50 });

    // A record that cannot be saved: what follows it in the group is forgotten and refused, so
    // no nonce is held by a transaction never sent, and the next send takes the next nonce.
    events.length = 0;
    const second = await Promise.allSettled([send('e'), send('f', 0n, true), send('g')]);
    expect(second.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(records.has('g')).toBe(false);
    expect(events).toContain('forgot g');
    const next = await send('h');
    expect(next.nonce).toBe(5);
    await client.waitForTransactionReceipt({ hash: next.hash, pollingInterval: 50 });
    expect(await client.getTransactionCount({ address: relayer.address })).toBe(6);
  });
});
