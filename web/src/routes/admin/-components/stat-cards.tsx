// The dashboard's four stat cards (docs/screens.md#admin-dashboard): Total Stores, Total Revenue,
// Total Orders and Total Products. Revenue and orders add up the stores' 30-day figures (revenue:
// USDC paid by payers, the charts' "Paid" and the accounting export's payments); money stays
// bigint, shown in USDC.
import { type StoreAnalytics, sumUsdc, tryParseUsdc } from '@store/shared';
import { MONEY_FIGURES } from '@store/shared/analytics';
import type { MerchantStore } from '../../../admin/types.ts';
import { usdcText } from '../../../admin/usdc-text.ts';

/** The four figures of the merchant's stores. */
export function dashboardTotals(
  stores: readonly MerchantStore[],
  analytics: ReadonlyMap<string, StoreAnalytics>,
) {
  const figures = stores.map((store) => analytics.get(store.id));
  const revenue = sumUsdc(
    figures.map((f) => (f ? (tryParseUsdc(f.totalRevenue30Days) ?? 0n) : 0n)),
  );
  return {
    stores: stores.length,
    revenue: usdcText(revenue),
    orders: figures.reduce((total, f) => total + (f?.totalOrders30Days ?? 0), 0),
    products: stores.reduce((total, store) => total + (store.productCount ?? 0), 0),
  };
}

/** The stat card row. */
export function StatCards(props: { totals: ReturnType<typeof dashboardTotals> }) {
  const cards = [
    ['Total Stores', String(props.totals.stores), undefined],
    ['Total Revenue', props.totals.revenue, `${MONEY_FIGURES.paid.label}, last 30 days`],
    ['Total Orders', String(props.totals.orders), 'Placed, last 30 days'],
    ['Total Products', String(props.totals.products), undefined],
  ] as const;
  return (
    <section className="stat-grid" aria-label="Totals">
      {cards.map(([label, value, note]) => (
        <article key={label} className="card stat-card" aria-label={label}>
          <h2 className="muted small">{label}</h2>
          <p className="stat-value" data-testid={`stat-${label}`}>
            {value}
          </p>
          {note && <p className="muted small">{note}</p>}
        </article>
      ))}
    </section>
  );
}
