// Every statement the product sends through drizzle is a named prepared statement of its
// connection: drizzle's postgres-js driver sends each query unprepared (parsed, analysed and
// planned by Postgres at every call), unless it is given a name. Measured at 50 payments a second,
// the planning alone was 40% of the worker's statements' time in Postgres (docs/benchmarks.md).
// Prepared, a statement is parsed once per connection and, once Postgres finds its generic plan
// no costlier than the custom ones (after five calls), planned once too.
// Note: the statement texts are fixed (values are always parameters), so a connection holds one
// per query shape; a list's length is part of its shape. The client retries a statement whose
// cached plan a migration invalidated.
import type postgres from 'postgres';

type Sql = postgres.Sql;

/** `sql`, with its queries, its transactions' and their savepoints' prepared. */
export function preparedByDefault<T extends Sql | postgres.TransactionSql>(sql: T): T {
  return new Proxy(sql, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === 'unsafe')
        return (query: string, args?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          (value as Sql['unsafe'])(query, args as postgres.ParameterOrJSON<never>[], {
            ...options,
            prepare: true,
          });
      // Note: `begin([options,] fn)` and `savepoint([name,] fn)` hand `fn` a client of their own.
      if (key === 'begin' || key === 'savepoint')
        return (...args: unknown[]) => {
          const fn = args.at(-1) as (inner: Sql) => unknown;
          return (value as (...a: unknown[]) => unknown)(...args.slice(0, -1), (inner: Sql) =>
            fn(preparedByDefault(inner)),
          );
        };
      return value;
    },
  });
}
