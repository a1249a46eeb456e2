// The operator's retry of a forwarding that stopped (`failed`, a person had to look) or waits for
// the relayer: `bun run forwarding:retry <orderId|--all-failed>`. Universal orders belong to no
// store owner, so this is their only retry. It resets the wallet's retry state in Postgres
// (DATABASE_URL, as the worker) and the running worker picks it up on its next pass.
import { eq } from 'drizzle-orm';
import { createDatabase } from './db/client.ts';
import { paymentWallets } from './db/schema.ts';
import { isUuid } from './db/uuid.ts';
import { resetForwardingRetry } from './modules/forwarding/service.ts';

const USAGE = 'usage: bun run forwarding:retry <orderId|--all-failed>';

/** Runs the command; returns the exit code. */
export async function forwardingRetry(
  args: readonly string[],
  databaseUrl: string | undefined,
  print: (line: string) => void = console.log,
): Promise<number> {
  const [target, ...rest] = args;
  if (!target || rest.length > 0 || (target !== '--all-failed' && !isUuid(target))) {
    print(USAGE);
    return 2;
  }
  if (!databaseUrl) {
    print('forwarding:retry: `DATABASE_URL` is not configured');
    return 2;
  }
  const database = createDatabase(databaseUrl, { max: 1 });
  try {
    if (target === '--all-failed') {
      const reset = await resetForwardingRetry(database.db, 'all');
      print(`forwarding:retry: ${reset.length} wallet(s) reset; the worker forwards them now`);
      return 0;
    }
    const [wallet] = await database.db
      .select()
      .from(paymentWallets)
      .where(eq(paymentWallets.orderId, target));
    if (!wallet) {
      print(`forwarding:retry: order ${target} has no deposit address`);
      return 1;
    }
    const reset = await resetForwardingRetry(database.db, [wallet.id]);
    if (reset.length === 0) {
      print(
        `forwarding:retry: order ${target} is '${wallet.forwardingStatus}', not failed or ` +
          'waiting for the relayer; nothing to reset',
      );
      return 1;
    }
    print(
      `forwarding:retry: order ${target} reset (was '${wallet.forwardingStatus}' after ` +
        `${wallet.forwardingRetryCount} attempt(s): ${wallet.forwardingError ?? 'no error'}); ` +
        'the worker forwards it now',
    );
    return 0;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  process.exit(await forwardingRetry(process.argv.slice(2), process.env.DATABASE_URL));
}
