// A migration's own test: a test database, a fresh database in it migrated up to the migration
// before the one under test (rows as they were stored then are inserted by the test), and
// clients on it that are closed with the database.
import { afterAll, beforeAll } from 'bun:test';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS_FOLDER } from '../../src/db/client.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './database.ts';

/** `url` with its database name replaced by `name`. */
export const inDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

/**
 * Registers the test database's start and stop; `before(name)` creates database `name`, migrates
 * it to the migration before `migration` and gives its URL and an admin client on it.
 */
export function useDatabaseBefore(migration: string) {
  const clients: postgres.Sql[] = [];
  const connect = (url: string) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    clients.push(sql);
    return sql;
  };
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await startTestDatabase();
  }, STACK_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await testDb?.stop();
  }, STACK_TIMEOUT_MS);

  async function before(name: string) {
    await connect(testDb.adminUrl).unsafe(`create database ${name}`);
    const url = inDatabase(testDb.adminUrl, name);
    const folder = await mkdtemp(join(tmpdir(), 'migrations-before-'));
    try {
      cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalFile = join(folder, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
      journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < migration);
      writeFileSync(journalFile, JSON.stringify(journal));
      rmSync(join(folder, `${migration}.sql`));
      await migrate(drizzle({ client: connect(url) }), { migrationsFolder: folder });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    return {
      url,
      db: connect(url),
      apiUrl: inDatabase(testDb.roleUrls.api, name),
      workerUrl: inDatabase(testDb.roleUrls.worker, name),
    };
  }
  return { before };
}
