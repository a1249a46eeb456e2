// The one error the `postgres` client is known to throw outside any query when Postgres drops a
// connection: a write it had deferred (setImmediate) runs after the socket closed, and throws
// `TypeError: null is not an object (evaluating 'socket.write')` from a timer, where no caller
// can catch it. The query it belonged to was already rejected (CONNECTION_CLOSED) and the pool
// reconnects by itself, so the API and the worker log it and carry on. Every other uncaught error
// still ends the process, as it does without a handler.

/** True for the client's deferred write on a closed socket (its message, from its own file). */
export function isDroppedSocketWrite(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const written = /evaluating 'socket\.write'|reading 'write'/.test(error.message);
  return written && /[\\/]postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? '');
}

/** Least time between two log lines about it (a restart of Postgres drops every connection). */
const LOG_EVERY_MS = 10_000;

/**
 * Installs the process's handler of uncaught errors: the client's write on a dropped socket is
 * logged (at most every 10 s) and the process goes on; anything else is printed and exits 1.
 */
export function surviveDroppedDatabaseSockets(log: (line: string) => void): void {
  let lastLogged = 0;
  let skipped = 0;
  process.on('uncaughtException', (error) => {
    if (!isDroppedSocketWrite(error)) {
      console.error(error);
      process.exit(1);
    }
    if (Date.now() - lastLogged < LOG_EVERY_MS) {
      skipped += 1;
      return;
    }
    const more = skipped > 0 ? ` (and ${skipped} more since the last line)` : '';
    log(
      `database: a connection closed under a write (Postgres restarting?); its query failed and the pool reconnects${more}`,
    );
    lastLogged = Date.now();
    skipped = 0;
  });
}
