// Indexing functions: rows keyed on `event.id`; what a transfer means is the settlement worker's job.
import { ponder } from 'ponder:registry';
import { transfer } from 'ponder:schema';

ponder.on('USDC:Transfer', async ({ event, context }) => {
  await context.db
    .insert(transfer)
    .values({
      id: event.id,
      from: event.args.from,
      to: event.args.to,
      value: event.args.value,
      blockNumber: event.block.number,
      blockTimestamp: event.block.timestamp,
      txHash: event.transaction.hash,
      logIndex: event.log.logIndex,
    })
    .onConflictDoNothing();
});
