// The store's accounting export: a range of UTC days and links to its money movements (each
// payment in, each forwarding leg out, with transactions) as CSV or JSON. Note: plain links with
// the session cookie, so the browser streams the server's file to disk, whatever its size.
import {
  MONEY_MOVEMENTS_DEFAULT_DAYS,
  MoneyMovementsQuerySchema,
  resolveRange,
} from '@store/shared/analytics';
import { useId, useState } from 'react';
import * as v from 'valibot';

/** The export's URLs for a store and a range. */
export function moneyMovementsUrls(storeId: string, range: { from: string; to: string }) {
  const query = new URLSearchParams(range).toString();
  const base = `/api/stores/${encodeURIComponent(storeId)}/money-movements`;
  return { csv: `${base}/csv?${query}`, json: `${base}?${query}` };
}

/** The form: from, to (default the last 30 days) and the two downloads. */
export function AccountingExport(props: { storeId: string; storeSlug: string }) {
  const id = useId();
  const [range, setRange] = useState(() => resolveRange({}));
  const checked = v.safeParse(MoneyMovementsQuerySchema, range);
  const problem = checked.success ? undefined : checked.issues[0]?.message;
  const urls = moneyMovementsUrls(props.storeId, range);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Accounting export</h2>
      <p className="muted small">
        Every payment received and every transfer out of it (your net, the 2% fee, refunds), with
        its transaction, for the days you choose (UTC). Per order, received = net + fee, to the base
        unit. Without dates: the last {MONEY_MOVEMENTS_DEFAULT_DAYS} days.
      </p>
      <div className="field-grid">
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            value={range.from}
            max={range.to}
            required
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            onChange={(event) => setRange({ ...range, from: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            type="date"
            value={range.to}
            min={range.from}
            required
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            onChange={(event) => setRange({ ...range, to: event.target.value })}
          />
        </div>
      </div>
      {problem && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="actions">
        {problem ? (
          <button type="button" className="button" disabled>
            Download CSV
          </button>
        ) : (
          <a
            className="button"
            href={urls.csv}
            download={`${props.storeSlug}-money-movements-${range.from}-to-${range.to}.csv`}
          >
            Download CSV
          </a>
        )}
        {!problem && (
          <a className="button button-quiet" href={urls.json} target="_blank" rel="noreferrer">
            JSON
          </a>
        )}
      </div>
    </section>
  );
}
