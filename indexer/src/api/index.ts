// Indexer HTTP API: `/transfers/:to` (Ponder adds /health, /ready, /status). SQL over HTTP at
// /sql/* and GraphQL at /graphql only when INDEXER_SQL_TOKEN is set, and then behind it.

import { createHash, timingSafeEqual } from 'node:crypto';
import { db } from 'ponder:api';
import schema from 'ponder:schema';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { client, graphql, replaceBigInts } from 'ponder';

/** Shortest INDEXER_SQL_TOKEN accepted (a random 32-character token or longer). */
const SQL_TOKEN_MIN_LENGTH = 32;

const app = new Hono();

// Note: /sql runs caller-written SQL on the indexer's database role and /graphql exposes the
// same tables; the product itself uses neither (the API reads /ready and /status). Off unless
// an operator sets a token; without one these paths answer 404 like any unknown path.
const sqlToken = process.env.INDEXER_SQL_TOKEN || undefined;
if (sqlToken !== undefined && sqlToken.length < SQL_TOKEN_MIN_LENGTH) {
  throw new Error(`INDEXER_SQL_TOKEN must be at least ${SQL_TOKEN_MIN_LENGTH} characters`);
}
if (sqlToken !== undefined) {
  const requireToken = bearerToken(sqlToken);
  app.use('/sql/*', requireToken, client({ db, schema }));
  app.use('/graphql', requireToken, graphql({ db, schema }));
}

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

/** Middleware: 401 unless `Authorization: Bearer <token>`, compared in constant time. */
function bearerToken(token: string) {
  // Note: both sides are hashed first so the comparison takes the same time whatever the
  // length of what was sent.
  const expected = sha256(token);
  return createMiddleware(async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer (.+)$/i.exec(header);
    const sent = match?.[1] ?? '';
    if (!timingSafeEqual(sha256(sent), expected) || !match) {
      c.header('WWW-Authenticate', 'Bearer');
      return c.json({ error: 'a valid bearer token is required' }, 401);
    }
    await next();
  });
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export default app;
