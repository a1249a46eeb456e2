// Which USDC transfers the indexer keeps. By default only those of our business: to or from a
// deposit address (payments, forwarding and refund legs), and a merchant-wallet refund (from the
// refund's payout address to the address the payer confirmed). INDEXER_ALL_TRANSFERS=true keeps
// every transfer of the chain, for analysts (the worker's retention job then deletes the old ones).
//
// Deposit addresses are derived here from PAYMENT_XPUB, an extended PUBLIC key (the seed never
// reaches this process), for indexes 0 to the highest assigned plus INDEXER_ADDRESS_GAP. The
// highest index and the refunds come from `indexer_feed.watch_state()` (migration 0016_indexer_watch_feed),
// read once per new block before its first transfer is judged: a wallet is assigned (nextval)
// before its address is shown, so a payment mined in any later block finds it in the set.
// Note: whenever the feed cannot be read (no function, no xpub, a failed query), and while the
// addresses up to the highest assigned are still being derived (a first start with many wallets),
// the transfers of that block are all kept: more rows than needed, never a payment missed.
import { depositAddressDeriver } from '@store/shared/deposit-address';
import postgres from 'postgres';

/** Default of INDEXER_ADDRESS_GAP: addresses derived past the highest assigned index. */
export const DEFAULT_ADDRESS_GAP = 1000;

/**
 * Most time spent deriving addresses in one block (about 0.35 ms each). Note: at a first start
 * with many wallets (100,000: ~35 s) the set is built over many blocks instead of stalling one;
 * until it reaches the highest assigned index every transfer is kept.
 */
const DERIVE_BUDGET_MS = 50;

/**
 * Lowercase address of deposit index `index` under the account's extended public key (the
 * derivation the API hands addresses out with).
 */
export function depositAddressesOf(xpub: string): (index: number) => string {
  let derive: ReturnType<typeof depositAddressDeriver>;
  try {
    derive = depositAddressDeriver(xpub);
  } catch (error) {
    throw new Error(`PAYMENT_XPUB: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (index) => derive(index).address.toLowerCase();
}

/** What `indexer_feed.watch_state()` answers. */
interface WatchState {
  highestIndex: number | string;
  refunds: Array<[string, string]>;
  /** The assigned wallet with the highest index and its address (null before the first). */
  check?: [number, string] | null;
}

/**
 * The indexer's filter; `atBlock` (the block's hash) before judging the first transfer of each
 * block. Note: by hash, not number: a block that a reorg replaced has the same number, and the
 * feed may have changed since the one it replaced was judged.
 */
export interface TransferFilter {
  /** True when every transfer is kept whatever happens (INDEXER_ALL_TRANSFERS=true). */
  readonly all: boolean;
  atBlock(blockHash: string): Promise<void>;
  keeps(from: string, to: string): boolean;
  /** Deposit addresses derived so far. */
  readonly derived: number;
}

export interface FilterOptions {
  all: boolean;
  xpub: string | undefined;
  gap: number;
  databaseUrl: string;
  log: (line: string) => void;
}

/** Reads INDEXER_ALL_TRANSFERS, INDEXER_ADDRESS_GAP, PAYMENT_XPUB and DATABASE_URL. */
export function filterOptionsFromEnv(env: Record<string, string | undefined>): FilterOptions {
  const all = env.INDEXER_ALL_TRANSFERS ?? '';
  if (!['', 'true', 'false'].includes(all)) {
    throw new Error(`INDEXER_ALL_TRANSFERS must be true or false (got "${all}")`);
  }
  const rawGap = env.INDEXER_ADDRESS_GAP ?? '';
  const gap = rawGap === '' ? DEFAULT_ADDRESS_GAP : Number(rawGap);
  if (!Number.isInteger(gap) || gap < 0 || gap > 1_000_000) {
    throw new Error(
      `INDEXER_ADDRESS_GAP must be a whole number from 0 to 1000000 (got "${rawGap}")`,
    );
  }
  return {
    all: all === 'true',
    xpub: env.PAYMENT_XPUB || undefined,
    gap,
    databaseUrl: env.DATABASE_URL ?? '',
    log: (line) => console.log(line),
  };
}

/** Keeps every transfer. */
const KEEP_ALL: TransferFilter = {
  all: true,
  atBlock: async () => {},
  keeps: () => true,
  derived: 0,
};

/** The filter the options ask for. */
export function createTransferFilter(options: FilterOptions): TransferFilter {
  if (options.all) {
    options.log('indexer: keeping every USDC transfer (INDEXER_ALL_TRANSFERS=true)');
    return KEEP_ALL;
  }
  if (!options.xpub) {
    options.log(
      'indexer: PAYMENT_XPUB is not set, so deposit addresses cannot be known: keeping every USDC transfer',
    );
    return KEEP_ALL;
  }
  const derive = depositAddressesOf(options.xpub);
  // Note: one connection of its own. A raw query through Ponder's `context.db` would flush its
  // buffered writes first, every block.
  // Note: a statement timeout, so a half-open connection fails the block's read (everything kept)
  // instead of stalling indexing.
  const sql = postgres(options.databaseUrl, {
    max: 1,
    onnotice: () => {},
    idle_timeout: 60,
    connection: { statement_timeout: 5000 },
  });
  const deposits = new Set<string>();
  let refunds = new Set<string>();
  let block: string | null = null;
  // The feed's last wallet whose address this key was seen to derive.
  let checked = '';
  let open = true;
  // Note: not empty, so the first answer of the feed is logged too.
  let lastProblem = 'starting';

  /** Derives toward `highest` + the gap within the budget; true once every assigned one is in. */
  const extendTo = (highest: number) => {
    const want = Math.min(highest + 1 + options.gap, 2 ** 31);
    const until = performance.now() + DERIVE_BUDGET_MS;
    while (deposits.size < want && performance.now() < until) deposits.add(derive(deposits.size));
    return deposits.size > highest;
  };

  const refresh = async () => {
    try {
      const [row] = await sql<{ state: WatchState }[]>`select indexer_feed.watch_state() as state`;
      const state = row?.state;
      if (!state) throw new Error('indexer_feed.watch_state() answered nothing');
      const highest = Number(state.highestIndex);
      // Note: another key than the API's would drop every payment: keep everything instead. A
      // wallet checked once is not derived again at every block.
      const check = state.check ? `${state.check[0]}>${state.check[1].toLowerCase()}` : '';
      if (state.check && check !== checked) {
        const [index, address] = state.check;
        if (derive(Number(index)) !== address.toLowerCase())
          throw new Error(
            `PAYMENT_XPUB does not derive the deposit addresses the API assigns (index ${index}): check its configuration`,
          );
        checked = check;
      }
      refunds = new Set(state.refunds.map(([from, to]) => `${from}>${to}`));
      if (!extendTo(highest)) {
        throw new Error(`deriving deposit addresses, ${deposits.size} of ${highest + 1} so far`);
      }
      open = false;
      if (lastProblem !== '') {
        options.log('indexer: the watch feed answers: keeping only our transfers');
        lastProblem = '';
      }
    } catch (error) {
      open = true;
      const problem = error instanceof Error ? error.message : String(error);
      // Note: said once, not at every block (the derivation's progress neither).
      const same =
        problem === lastProblem ||
        (problem.startsWith('deriving') && lastProblem.startsWith('deriving'));
      if (!same) {
        options.log(
          `indexer: not filtering yet (${problem}): keeping every USDC transfer until the watch feed answers`,
        );
      }
      lastProblem = problem;
    }
  };

  return {
    all: false,
    get derived() {
      return deposits.size;
    },
    atBlock: async (hash) => {
      if (hash === block) return;
      block = hash;
      await refresh();
    },
    keeps: (from, to) => {
      if (open) return true;
      const f = from.toLowerCase();
      const t = to.toLowerCase();
      return deposits.has(t) || deposits.has(f) || refunds.has(`${f}>${t}`);
    },
  };
}
