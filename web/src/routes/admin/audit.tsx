// Route /admin/audit: a store's audit log (GET /api/stores/{id}/audit): every change to money or
// access, newest first, with who made it (and the API key when one was used), from where and what
// changed; filtered by action and days from the URL, 50 at a time with "Load more", and the same
// as a CSV download. Read from the network.
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditEntry } from '@store/shared/audit';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useState } from 'react';
import * as v from 'valibot';
import { auditCsvUrl, fetchAuditPage } from '../../admin/audit-api.ts';
import { useStoreLoad } from '../../admin/use-store-load.ts';
import { errorText } from '../../lib/api.ts';
import { toastError } from '../../lib/toast.ts';
import '../../admin/table-cards.css';

const day = v.pipe(
  v.optional(v.string()),
  v.transform((d) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined)),
);
// Note: a malformed value is dropped rather than failing the page.
const SearchSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string()),
    v.transform((id) => (id && /^[\w-]{1,100}$/.test(id) ? id : undefined)),
  ),
  action: v.pipe(
    v.optional(v.string()),
    v.transform((a) => AUDIT_ACTIONS.find((known) => known === a)),
  ),
  from: day,
  to: day,
});

export const Route = createFileRoute('/admin/audit')({
  validateSearch: valibotValidator(SearchSchema),
  component: AuditPage,
});

function AuditPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const userId = Route.useRouteContext().merchant.id;
  const filters = { action: search.action, from: search.from, to: search.to };
  const { stores, storeId, load, setLoad } = useStoreLoad({
    userId,
    storeId: search.storeId,
    permission: 'audit',
    fetch: async (id) => {
      const page = await fetchAuditPage(id, filters);
      return { entries: page.entries, cursor: page.nextCursor };
    },
    key: JSON.stringify(filters),
  });
  const [loadingMore, setLoadingMore] = useState(false);

  const setSearch = (patch: Partial<typeof search>) =>
    navigate({ search: (previous) => ({ ...previous, ...patch }), replace: true });

  const loadMore = async () => {
    if (load.state !== 'loaded' || !load.value.cursor || !storeId) return;
    setLoadingMore(true);
    try {
      const page = await fetchAuditPage(storeId, filters, load.value.cursor);
      setLoad({
        state: 'loaded',
        value: { entries: [...load.value.entries, ...page.entries], cursor: page.nextCursor },
      });
    } catch (error) {
      toastError('Failed to load more entries', errorText(error));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <>
      <div className="admin-heading">
        <h1>Audit log</h1>
        {storeId && (
          <a className="button button-quiet" href={auditCsvUrl(storeId, filters)} download>
            Download CSV
          </a>
        )}
      </div>
      <p className="muted">
        Every change to money or access: payout address, store address, closing the store, refunds,
        accepted underpaid orders, API keys, the webhook, and sign-ins from a new device. Entries
        are never changed or removed.
      </p>
      <form
        className="admin-filters"
        aria-label="Audit log filters"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field">
          <label htmlFor="audit-store">Store</label>
          <select
            id="audit-store"
            value={storeId ?? ''}
            onChange={(event) => void setSearch({ storeId: event.target.value || undefined })}
          >
            {stores.length === 0 && <option value="">No store yet</option>}
            {stores.map(({ item }) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-action">Change</label>
          <select
            id="audit-action"
            value={search.action ?? ''}
            onChange={(event) =>
              void setSearch({
                action: AUDIT_ACTIONS.find((a) => a === event.target.value),
              })
            }
          >
            <option value="">All changes</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {AUDIT_ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <input
            id="audit-from"
            type="date"
            value={search.from ?? ''}
            onChange={(event) => void setSearch({ from: event.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To</label>
          <input
            id="audit-to"
            type="date"
            value={search.to ?? ''}
            onChange={(event) => void setSearch({ to: event.target.value || undefined })}
          />
        </div>
      </form>
      <section className="card" aria-label="Audit log">
        {!storeId ? (
          <p className="muted">Create a store first: its changes will appear here.</p>
        ) : load.state === 'loading' ? (
          <p className="muted">Loading the audit log…</p>
        ) : load.state === 'offline' ? (
          <p className="muted" role="status">
            The audit log needs a connection. Connect to the internet and try again.
          </p>
        ) : load.state === 'refused' ? (
          <p className="field-error" role="alert">
            {load.text}
          </p>
        ) : (
          <>
            <AuditTable entries={load.value.entries} />
            {load.value.cursor && (
              <div className="actions">
                <button
                  type="button"
                  className="button button-quiet"
                  disabled={loadingMore}
                  onClick={() => void loadMore()}
                >
                  {loadingMore ? 'Loading…' : 'Load more'}
                </button>
              </div>
            )}
          </>
        )}
      </section>
    </>
  );
}

/** A changed value as the table shows it. */
const shown = (value: unknown) => (value === null || value === undefined ? '—' : String(value));

function AuditTable(props: { entries: AuditEntry[] }) {
  if (props.entries.length === 0) return <p className="muted">No change recorded here yet.</p>;
  return (
    <div className="table-wrap table-cards">
      <table>
        <thead>
          <tr>
            <th scope="col">Change</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">From</th>
            <th scope="col">What changed</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-entry">
              <th scope="row">{AUDIT_ACTION_LABELS[entry.action]}</th>
              <td data-label="When">
                <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
              </td>
              <td data-label="Who">
                <div>
                  {entry.actor.username ?? '—'}
                  {entry.actor.apiKeyPrefix && (
                    <div className="muted small">API key {entry.actor.apiKeyPrefix}…</div>
                  )}
                </div>
              </td>
              <td data-label="From">
                <div className="audit-from">
                  {entry.ip ?? '—'}
                  {entry.userAgent && (
                    <div className="muted small audit-agent" title={entry.userAgent}>
                      {entry.userAgent}
                    </div>
                  )}
                </div>
              </td>
              <td data-label="What changed">
                {Object.keys(entry.changes).length === 0 ? (
                  '—'
                ) : (
                  <ul className="audit-changes">
                    {Object.entries(entry.changes).map(([field, change]) => (
                      <li key={field}>
                        <span className="muted">{field}:</span> {shown(change.before)} →{' '}
                        <strong>{shown(change.after)}</strong>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
