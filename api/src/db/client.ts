// The API's Postgres connection (drizzle over the `postgres` client), its migrations, the check
// that a database is migrated (for processes that may not migrate it), and the roles' logins.
// Run as a script, it is a deployment's migrate step (see `migrateStep` below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { ConfigError } from '../config.ts';
import { preparedByDefault } from './prepared.ts';
import * as schema from './schema.ts';

/** Folder of the SQL migrations drizzle-kit generated. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * The Postgres roles migration 0004 creates (NOLOGIN; a deployment or the local stack gives each
 * one LOGIN and a password): one per process, and read-only analysts. None is a superuser.
 */
export const DATABASE_ROLES = {
  api: 'storefront_api',
  worker: 'storefront_worker',
  indexer: 'storefront_indexer',
  analyst: 'storefront_analyst',
} as const;

export type DatabaseRole = keyof typeof DATABASE_ROLES;

// Note: `public` only, never "$user" first: a schema named after the connecting role (the
// indexer's role may create schemas) must not shadow the product's tables.
const CONNECTION = { search_path: 'public' };

/** Opens a pooled connection with the API's schema and snake_case columns. */
export function createDatabase(url: string, options: { max?: number } = {}) {
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: CONNECTION,
  });
  const db = drizzle({ client: preparedByDefault(client), schema, casing: 'snake_case' });
  return { db, client, close: () => client.end({ timeout: 5 }) };
}

export type Database = ReturnType<typeof createDatabase>['db'];

/** An open transaction of the database (what `db.transaction` hands its callback). */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Something that runs SQL: the database or an open transaction. */
export type Executor = Database | Transaction;

// Note: any fixed number works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_240_001;

/**
 * Applies pending migrations as the database's owner (`url` needs DDL rights); safe when several
 * processes migrate at once (advisory lock).
 */
export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: CONNECTION });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Tags of the migrations in the journal that the database at `url` has not applied, oldest first. */
export async function pendingMigrations(url: string): Promise<string[]> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'))
    .entries as Array<{ tag: string; when: number }>;
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: CONNECTION });
  try {
    // Note: drizzle's own rule: a migration is applied if it is not newer than the last one run.
    const [last] = await client<{ created_at: string | null }[]>`
      select max(created_at)::text as created_at from drizzle.__drizzle_migrations`.catch(
      (error: { code?: string }) => {
        // undefined_table, invalid_schema_name: nothing was ever migrated
        if (error.code === '42P01' || error.code === '3F000') return [{ created_at: null }];
        throw error;
      },
    );
    const applied = last?.created_at ? Number(last.created_at) : -1;
    return journal.filter((entry) => entry.when > applied).map((entry) => entry.tag);
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * Start-up of the API and the worker: migrates with `migrationDatabaseUrl` (the owner's) when
 * given; otherwise only checks, since their own role has no DDL rights, and throws a ConfigError
 * naming the missing migrations.
 */
export async function migrateOrCheckDatabase(config: {
  databaseUrl: string;
  migrationDatabaseUrl?: string;
}): Promise<void> {
  if (config.migrationDatabaseUrl) return migrateDatabase(config.migrationDatabaseUrl);
  const pending = await pendingMigrations(config.databaseUrl);
  if (pending.length > 0) {
    throw new ConfigError(
      `the database lacks ${pending.length} migration(s) (${pending.join(', ')}): run them as ` +
        "the database's owner (the migrate service, or MIGRATION_DATABASE_URL set to the owner's URL)",
    );
  }
}

/**
 * Lets each role in `passwords` log in with its password, as the owner at `adminUrl` (a role left
 * out keeps what it had). Note: roles are cluster-wide: this is for every database of the cluster.
 */
export async function setRolePasswords(
  adminUrl: string,
  passwords: Partial<Record<DatabaseRole, string>>,
): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    for (const [role, password] of Object.entries(passwords) as Array<[DatabaseRole, string]>) {
      if (!password) continue;
      // Note: ALTER ROLE takes no parameters; format() quotes the name and the password.
      const [row] = await sql<{ statement: string }[]>`
        select format('alter role %I login password %L', ${DATABASE_ROLES[role]}::text,
          ${password}::text) as statement`;
      if (row) await sql.unsafe(row.statement);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * `bun api/src/db/client.ts`: applies the migrations as MIGRATION_DATABASE_URL (the owner), then
 * sets the passwords given as API_DATABASE_PASSWORD, WORKER_DATABASE_PASSWORD,
 * INDEXER_DATABASE_PASSWORD and ANALYST_DATABASE_PASSWORD (docker-compose.yml's `migrate`).
 */
async function migrateStep(env: Record<string, string | undefined>): Promise<void> {
  const url = env.MIGRATION_DATABASE_URL;
  if (!url) throw new ConfigError('`MIGRATION_DATABASE_URL` is not configured');
  await migrateDatabase(url);
  const roles = Object.keys(DATABASE_ROLES) as DatabaseRole[];
  const passwords = Object.fromEntries(
    roles.map((role) => [role, env[`${role.toUpperCase()}_DATABASE_PASSWORD`]]),
  );
  await setRolePasswords(url, passwords);
  const set = roles.filter((role) => passwords[role]);
  console.log(`migrate: migrations applied; logins set for ${set.join(', ') || 'no role'}`);
}

if (import.meta.main) {
  migrateStep(process.env).catch((error) => {
    console.error(error instanceof ConfigError ? `migrate: ${error.message}` : error);
    process.exit(1);
  });
}
