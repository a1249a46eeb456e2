// The orders page's search box and filters. The URL holds them (the page reads them from its search
// params): typing updates it after a short pause, replacing the history entry rather than adding
// one per letter; the selects and days update it at once.
import {
  ORDER_EXCEPTIONS,
  ORDER_LIST_LIMITS,
  ORDER_STATUSES,
  type OrderException,
  type OrderListFilters,
  type OrderStatus,
} from '@store/shared';
import { useEffect, useRef, useState } from 'react';

const SEARCH_DELAY_MS = 300;

const EXCEPTION_LABELS: Record<OrderException, string> = {
  underpaid: 'Underpaid',
  overpaid: 'Overpaid',
  paid_late: 'Paid late',
  oversold: 'Out of stock when paid',
};

/** The search box, store, status and exception selects and the day range. */
export function OrderFilters(props: {
  filters: OrderListFilters;
  stores: readonly { id: string; name: string }[];
  onChange: (patch: Partial<OrderListFilters>, replace?: boolean) => void;
}) {
  const { filters, onChange } = props;
  const [text, setText] = useState(filters.q ?? '');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Note: the URL wins when it changes from elsewhere (back button, a link).
  useEffect(() => setText(filters.q ?? ''), [filters.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const search = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => onChange({ q: value.trim() || undefined }, true),
      SEARCH_DELAY_MS,
    );
  };

  return (
    <form
      className="admin-filters"
      aria-label="Order filters"
      onSubmit={(event) => {
        event.preventDefault();
        clearTimeout(timer.current);
        onChange({ q: text.trim() || undefined }, true);
      }}
    >
      <div className="field order-search">
        <label htmlFor="orders-search">Search</label>
        <input
          id="orders-search"
          type="search"
          value={text}
          maxLength={ORDER_LIST_LIMITS.search}
          placeholder="Email, order number or external ID"
          onChange={(event) => search(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="orders-store">Store</label>
        <select
          id="orders-store"
          value={filters.storeId ?? ''}
          onChange={(event) => onChange({ storeId: event.target.value || undefined })}
        >
          <option value="">All stores</option>
          {props.stores.map((store) => (
            <option key={store.id} value={store.id}>
              {store.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="orders-status">Status</label>
        <select
          id="orders-status"
          value={filters.status ?? ''}
          onChange={(event) =>
            onChange({ status: (event.target.value || undefined) as OrderStatus | undefined })
          }
        >
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="orders-exception">Exception</label>
        <select
          id="orders-exception"
          value={filters.exception ?? ''}
          onChange={(event) =>
            onChange({
              exception: (event.target.value || undefined) as OrderException | undefined,
            })
          }
        >
          <option value="">Any</option>
          {ORDER_EXCEPTIONS.map((value) => (
            <option key={value} value={value}>
              {EXCEPTION_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="orders-from">From</label>
        <input
          id="orders-from"
          type="date"
          value={filters.from ?? ''}
          max={filters.to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
        />
      </div>
      <div className="field">
        <label htmlFor="orders-to">To</label>
        <input
          id="orders-to"
          type="date"
          value={filters.to ?? ''}
          min={filters.from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
        />
      </div>
    </form>
  );
}
