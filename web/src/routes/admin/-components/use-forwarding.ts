// The forwarding of the paid orders on the orders page, read a few at a time (one request per
// order; the list does not carry it), and re-read every few seconds while one is still moving.
import { isRevenueStatus } from '@store/shared';
import { useCallback, useEffect, useState } from 'react';
import {
  type Forwarding,
  fetchForwarding,
  isForwardingUnsettled,
} from '../../../admin/forwarding.ts';
import type { MerchantOrder } from '../../../admin/types.ts';

const PARALLEL = 4;
const REFRESH_MS = 10_000;

async function readAll(ids: readonly string[]): Promise<Map<string, Forwarding>> {
  const found = new Map<string, Forwarding>();
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      // Note: an order without a deposit address (404) or an offline device simply shows none.
      const forwarding = await fetchForwarding(id).catch(() => undefined);
      if (forwarding) found.set(id, forwarding);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
  return found;
}

/** Forwarding by order id (paid orders only), and `reload(ids)` to re-read some of them now. */
export function useForwarding(orders: readonly MerchantOrder[] | undefined) {
  const [byOrder, setByOrder] = useState<ReadonlyMap<string, Forwarding>>(new Map());
  const key = (orders ?? [])
    .filter((order) => isRevenueStatus(order.status))
    .map((order) => order.id)
    .join(',');

  const reload = useCallback(async (ids: readonly string[]) => {
    if (ids.length === 0) return;
    const fresh = await readAll(ids);
    setByOrder((previous) => new Map([...previous, ...fresh]));
  }, []);

  useEffect(() => {
    void reload(key ? key.split(',') : []);
  }, [key, reload]);

  const moving = [...byOrder]
    .filter(([id, forwarding]) => key.includes(id) && isForwardingUnsettled(forwarding.status))
    .map(([id]) => id)
    .join(',');
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => void reload(moving.split(',')), REFRESH_MS);
    return () => clearInterval(timer);
  }, [moving, reload]);

  return { byOrder, reload };
}
