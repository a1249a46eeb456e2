// The merchant's unsynced changes: a line while edits wait (offline or retrying), and for each
// stopped edit the choice to make: a conflict shows both versions (keep mine / use the server's),
// a refused edit shows the server's message (discard).
import { toast } from '../../lib/toast.ts';
import { conflictFields, discardFailed, keepMine, takeServer } from '../outbox/resolve.ts';
import { syncNow } from '../outbox/sync.ts';
import { failureTitle } from '../outbox/use-outbox-sync.ts';
import type { OutboxRow } from '../types.ts';
import { useOutboxEntries } from '../use-merchant-data.ts';

function nameOf(entry: OutboxRow): string {
  const body = entry.body as { name?: unknown; title?: unknown };
  const server = entry.server as { name?: unknown; title?: unknown } | undefined;
  const name = body.name ?? body.title ?? server?.name ?? server?.title;
  return typeof name === 'string' ? name : entry.kind;
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return String(value);
}

function ConflictCard(props: { entry: OutboxRow }) {
  const { entry } = props;
  const label = `${entry.kind === 'store' ? 'Store' : 'Product'} “${nameOf(entry)}”`;
  return (
    <article className="card notice notice-warning" aria-label={`Conflict: ${label}`}>
      <h3>{label} was changed elsewhere</h3>
      <p className="muted small">Choose which version to keep.</p>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Your version</th>
              <th scope="col">Server version</th>
            </tr>
          </thead>
          <tbody>
            {conflictFields(entry).map((row) => (
              <tr key={row.field}>
                <th scope="row">{row.field}</th>
                <td>{show(row.mine)}</td>
                <td>{show(row.server)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={async () => {
            await keepMine(entry);
            await syncNow(entry.userId);
          }}
        >
          Keep mine
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={async () => {
            await takeServer(entry);
            toast({ title: 'Server version kept' });
          }}
        >
          Use server version
        </button>
      </div>
    </article>
  );
}

function FailureCard(props: { entry: OutboxRow }) {
  const { entry } = props;
  return (
    <article className="card notice notice-error" aria-label={`Sync failed: ${nameOf(entry)}`}>
      <h3>
        {failureTitle(entry)}: {nameOf(entry)}
      </h3>
      <p className="muted small">{entry.error}</p>
      <button type="button" className="button button-quiet" onClick={() => discardFailed(entry)}>
        Discard this change
      </button>
    </article>
  );
}

/** Shown at the top of every admin page; nothing when all is synced. */
export function SyncPanel(props: { userId: string }) {
  const entries = useOutboxEntries(props.userId) ?? [];
  const pending = entries.filter((entry) => entry.status === 'pending').length;
  const stopped = entries.filter((entry) => entry.status !== 'pending');
  if (entries.length === 0) return null;
  return (
    <section className="sync-panel" aria-label="Unsynced changes">
      {pending > 0 && (
        <p className="sync-line" role="status">
          {pending} change{pending === 1 ? '' : 's'} waiting to sync.{' '}
          <button
            type="button"
            className="button button-quiet button-small"
            onClick={() => void syncNow(props.userId)}
          >
            Sync now
          </button>
        </p>
      )}
      {stopped.map((entry) =>
        entry.status === 'conflict' ? (
          <ConflictCard key={entry.seq} entry={entry} />
        ) : (
          <FailureCard key={entry.seq} entry={entry} />
        ),
      )}
    </section>
  );
}
