// Indexer HTTP API: GraphQL at /graphql and SQL over HTTP at /sql/* (Ponder adds /health, /ready, /status).

import { db } from 'ponder:api';
import schema from 'ponder:schema';
import { Hono } from 'hono';
import { client, graphql, replaceBigInts } from 'ponder';

const app = new Hono();

app.use('/sql/*', client({ db, schema }));
app.use('/graphql', graphql({ db, schema }));

/** Latest transfers to one address; values are decimal strings (JSON has no bigint). */
app.get('/transfers/:to', async (c) => {
  const to = c.req.param('to').toLowerCase() as `0x${string}`;
  const rows = await db.query.transfer.findMany({
    where: (row, { eq }) => eq(row.to, to),
    orderBy: (row, { desc }) => [desc(row.blockNumber), desc(row.logIndex)],
    limit: 100,
  });
  return c.json(replaceBigInts(rows, (value) => String(value)));
});

export default app;
