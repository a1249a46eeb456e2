// Route /admin/payouts: what reached a store's payout wallet per UTC day (GET
// /api/stores/{id}/payouts): the forwarding of the merchant's share of each order (already net of
// the 2% fee) counted once confirmed, minus the refunds sent from the payout wallet, with each
// transaction and the day's totals; a CSV of the same lines. The store and the days are in the URL,
// so a link opens the same page. Payouts are read from the network (nothing is cached offline).
import { formatOrderNumber } from '@store/shared';
import { MONEY_FIGURES, resolveRange } from '@store/shared/analytics';
import { type Payouts, PayoutsQuerySchema, PayoutsSchema } from '@store/shared/payouts';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useId } from 'react';
import * as v from 'valibot';
import { TxLink } from '../../admin/components/tx-link.tsx';
import { type StoreLoad, UnreadableAnswer, useStoreLoad } from '../../admin/use-store-load.ts';
import { apiRequest } from '../../lib/api.ts';
import '../../admin/table-cards.css';

const day = /^\d{4}-\d{2}-\d{2}$/;
const keep = (test: (value: string) => boolean) =>
  v.pipe(
    v.optional(v.string()),
    v.transform((value) => (value && test(value) ? value : undefined)),
  );

// Note: a malformed value is dropped rather than failing the page.
const SearchSchema = v.object({
  storeId: keep((id) => /^[\w-]{1,100}$/.test(id)),
  from: keep((d) => day.test(d)),
  to: keep((d) => day.test(d)),
});

export const Route = createFileRoute('/admin/payouts')({
  validateSearch: valibotValidator(SearchSchema),
  component: PayoutsPage,
});

/** An exact USDC amount without trailing zeros past the cents ("-3.000000" → "-3.00 USDC"). */
function exactUsdc(amount: string): string {
  return `${amount.replace(/(\.\d\d\d*?)0+$/, '$1')} USDC`;
}

/** "Friday, 27 November 2026" for a UTC day. */
function longDay(isoDay: string): string {
  return new Date(`${isoDay}T00:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function PayoutsPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const userId = Route.useRouteContext().merchant.id;
  const id = useId();
  const range = resolveRange({ from: search.from, to: search.to });
  const checked = v.safeParse(PayoutsQuerySchema, range);
  const problem = checked.success ? undefined : checked.issues[0]?.message;
  const query = new URLSearchParams(range).toString();
  const { stores, storeId, load } = useStoreLoad({
    userId,
    storeId: search.storeId,
    permission: 'read',
    fetch: async (chosen) => {
      const body = await apiRequest<unknown>(
        'GET',
        `/api/stores/${encodeURIComponent(chosen)}/payouts?${query}`,
      );
      const parsed = v.safeParse(PayoutsSchema, body);
      if (!parsed.success) throw new UnreadableAnswer('The payouts could not be read.');
      return parsed.output;
    },
    key: query,
    enabled: !problem,
  });
  const store = stores.find((s) => s.item.id === storeId)?.item;

  const setSearch = (patch: Partial<typeof search>) =>
    navigate({ search: (previous) => ({ ...previous, ...patch }), replace: true });
  const csvUrl = storeId
    ? `/api/stores/${encodeURIComponent(storeId)}/payouts/csv?${query}`
    : undefined;

  return (
    <div className="payouts">
      <div className="admin-heading">
        <h1>Payouts</h1>
        {csvUrl && !problem ? (
          <a
            className="button button-quiet"
            href={csvUrl}
            download={`${store?.slug ?? 'store'}-payouts-${range.from}-to-${range.to}.csv`}
          >
            Download CSV
          </a>
        ) : (
          <button type="button" className="button button-quiet" disabled>
            Download CSV
          </button>
        )}
      </div>
      <p className="muted">
        What reached your payout wallet, per day (UTC): your share of each paid order (the 2% fee
        already taken) once its transfer is confirmed on the chain, minus the refunds you sent from
        the payout wallet. Each line is one transaction.
      </p>
      <form
        className="admin-filters"
        aria-label="Payout filters"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field">
          <label htmlFor={`${id}-store`}>Store</label>
          <select
            id={`${id}-store`}
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
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            value={range.from}
            max={range.to}
            required
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            onChange={(event) => void setSearch({ from: event.target.value || undefined })}
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
            onChange={(event) => void setSearch({ to: event.target.value || undefined })}
          />
        </div>
      </form>
      {problem && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </p>
      )}
      {!problem && !storeId && (
        <p className="muted">Create a store first: its payouts will appear here.</p>
      )}
      {!problem && storeId && <PayoutsBody load={load} />}
    </div>
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function PayoutsBody(props: { load: StoreLoad<Payouts> }) {
  const { load } = props;
  if (load.state === 'loading') return <p className="muted">Loading payouts…</p>;
  if (load.state === 'offline')
    return (
      <p className="muted" role="status">
        Payouts need a connection. Connect to the internet and try again.
      </p>
    );
  if (load.state === 'refused')
    return (
      <p className="field-error" role="alert">
        {load.text}
      </p>
    );
  const payouts = load.value;
  // Note: named and explained as the dashboard's figures (MONEY_FIGURES), never in words of its own.
  const totals = [
    {
      ...MONEY_FIGURES.received,
      amount: payouts.totals.receivedUsdc,
      count: plural(payouts.totals.payouts, 'payout'),
    },
    {
      ...MONEY_FIGURES.refunded,
      amount: payouts.totals.refundedUsdc,
      count: plural(payouts.totals.refunds, 'refund'),
    },
    { ...MONEY_FIGURES.net, amount: payouts.totals.netUsdc, count: undefined },
    { ...MONEY_FIGURES.fees, amount: payouts.totals.feesUsdc, count: undefined },
  ];
  return (
    <>
      <section className="stat-grid payout-totals" aria-label="Payout totals">
        {totals.map(({ label, note, amount, count }) => (
          <article key={label} className="card stat-card" aria-label={label}>
            <h2 className="muted small">{label}</h2>
            <p className="stat-value" data-testid={`payouts-${label}`}>
              {exactUsdc(amount)}
            </p>
            <p className="muted small">
              {note}
              {count && ` (${count})`}
            </p>
          </article>
        ))}
      </section>
      <p className="small">
        Payout wallet:{' '}
        {payouts.payoutAddress ? (
          <span className="mono" data-testid="payout-address">
            {payouts.payoutAddress}
          </span>
        ) : (
          'none set'
        )}
      </p>
      {payouts.days.length === 0 ? (
        <p className="muted">
          Nothing reached the payout wallet from {payouts.from} to {payouts.to}.
        </p>
      ) : (
        payouts.days.map((d) => (
          <PayoutDayCard key={d.day} day={d} payoutAddress={payouts.payoutAddress} />
        ))
      )}
    </>
  );
}

/**
 * "Received 21.168 USDC (2 payouts) − refunded 3.00 USDC (1 refund) = net to your wallet 18.168
 * USDC. Fees (2%) that day: …", in MONEY_FIGURES' words.
 */
function daySummary(day: Payouts['days'][number]): string {
  const { received, refunded, net, fees } = MONEY_FIGURES;
  return `${received.label} ${exactUsdc(day.receivedUsdc)} (${plural(day.payouts, 'payout')}) − ${refunded.label.toLowerCase()} ${exactUsdc(day.refundedUsdc)} (${plural(day.refunds, 'refund')}) = ${net.label.toLowerCase()} ${exactUsdc(day.netUsdc)}. ${fees.label} that day: ${exactUsdc(day.feesUsdc)}.`;
}

function PayoutDayCard(props: { day: Payouts['days'][number]; payoutAddress: string | null }) {
  const { day } = props;
  const current = props.payoutAddress?.toLowerCase();
  const headingId = `payout-day-${day.day}`;
  return (
    <section className="card payout-day" aria-labelledby={headingId} data-day={day.day}>
      <div className="admin-heading">
        <h2 id={headingId}>
          <time dateTime={day.day}>{longDay(day.day)}</time>
        </h2>
        <p className="payout-day-net">
          Net <span data-testid={`payout-net-${day.day}`}>{exactUsdc(day.netUsdc)}</span>
        </p>
      </div>
      <p className="muted small">{daySummary(day)}</p>
      {day.entries.length > 0 && (
        <div className="table-wrap table-cards">
          <table>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Type</th>
                <th scope="col">Order</th>
                <th scope="col">Transaction</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {day.entries.map((entry) => (
                <tr key={`${entry.type}:${entry.txHash}:${entry.orderId}`}>
                  <th scope="row" data-label="Time (UTC)">
                    <time dateTime={entry.time}>{entry.time.slice(11, 19)}</time>
                  </th>
                  <td data-label="Type">
                    {entry.type === 'payout' ? 'Payout' : 'Refund from wallet'}
                  </td>
                  <td data-label="Order">
                    <Link to="/admin/orders/$orderId" params={{ orderId: entry.orderId }}>
                      {formatOrderNumber(entry.orderId)}
                    </Link>
                    {entry.externalOrderId && (
                      <span className="muted small"> ({entry.externalOrderId})</span>
                    )}
                  </td>
                  <td data-label="Transaction">
                    <TxLink hash={entry.txHash} />
                    {entry.type === 'payout' && entry.to !== current && (
                      <div className="muted small">
                        To an earlier payout address: <span className="mono">{entry.to}</span>
                      </div>
                    )}
                    {entry.type === 'merchant_refund' && (
                      <div className="muted small">
                        To the payer: <span className="mono">{entry.to}</span>
                      </div>
                    )}
                  </td>
                  <td data-label="Amount" className="payout-amount">
                    {entry.type === 'payout' ? '+' : '−'}
                    {exactUsdc(entry.amountUsdc)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
