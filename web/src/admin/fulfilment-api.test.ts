import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAllOrders, fetchOrderPage, orderListQuery, shipmentOf } from './fulfilment-api.ts';
import type { MerchantOrder } from './types.ts';

const order = (id: string, extra: Record<string, unknown> = {}) =>
  ({
    id,
    storeId: 's1',
    source: 'storefront',
    payeeAddress: null,
    discountCode: null,
    discountUsdc: '0.00',
    customerEmail: 'ada@example.com',
    shippingAddress: null,
    items: [{ productId: 'p', title: 'Mug', quantity: 1, priceUsdc: '1.00' }],
    subtotalUsdc: '1.00',
    shippingUsdc: '0.00',
    taxUsdc: '0.00',
    totalUsdc: '1.00',
    status: 'paid',
    paymentChain: null,
    paymentTxHash: null,
    paymentAddress: null,
    metadata: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  }) as MerchantOrder;

afterEach(() => vi.unstubAllGlobals());

describe('order list requests', () => {
  it('puts only the filters that are set in the query', () => {
    expect(
      orderListQuery(
        { q: '#ab12cd34', status: 'paid', storeId: undefined },
        { limit: '50' },
      ).toString(),
    ).toBe('q=%23ab12cd34&status=paid&limit=50');
  });

  it('reads the next cursor from the header and follows it for the CSV', async () => {
    const urls: string[] = [];
    const pages = [
      { body: [order('a'), order('b')], cursor: 'c1' },
      { body: [order('c')], cursor: null },
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const page = pages[urls.length - 1];
        const headers = new Headers(page?.cursor ? { 'x-next-cursor': page.cursor } : {});
        return new Response(JSON.stringify(page?.body ?? []), { status: 200, headers });
      }),
    );
    const first = await fetchOrderPage({ exception: 'underpaid' });
    expect(first.nextCursor).toBe('c1');
    expect(urls[0]).toBe('/api/orders?exception=underpaid&limit=50');
    urls.length = 0;
    const all = await fetchAllOrders({ exception: 'underpaid' });
    expect(all.map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(urls[1]).toBe('/api/orders?exception=underpaid&limit=500&cursor=c1');
  });

  it('turns a refusal into an error with the API message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'validation_failed', message: 'bad' } }), {
            status: 422,
          }),
      ),
    );
    await expect(fetchOrderPage({})).rejects.toThrow('bad');
  });
});

describe('shipmentOf', () => {
  it('answers a valid shipment and nothing for an older cached order', () => {
    const shipment = {
      carrier: 'UPS',
      trackingNumber: '1Z',
      trackingUrl: null,
      shippedAt: '2026-01-02T00:00:00.000Z',
    };
    expect(shipmentOf(order('a', { shipment }))).toEqual(shipment);
    expect(shipmentOf(order('b'))).toBeNull();
    expect(shipmentOf(order('c', { shipment: { carrier: 'UPS' } }))).toBeNull();
  });
});
