// A row's version: its `updatedAt`, moved forward by every write, so an edit made from a stale
// copy is refused (http/versions.ts).
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

// Note: at least 1 ms later than the stored version, so two edits within one millisecond still
// produce two distinct versions.
/** SQL for the next version of a row's `updatedAt`. */
export function nextVersion(column: PgColumn): SQL {
  return sql`greatest(now(), ${column} + interval '1 millisecond')`;
}
