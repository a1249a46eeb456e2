// Migration 0037 on a database from before it: a store's flat tax rate and shipping methods become
// its "Rest of world" zone, with no other zone and the tax added as before, so each of its orders
// is priced to the same totals, whatever the shipping country.
import { describe, expect, test } from 'bun:test';
import { FALLBACK_ZONE_NAME, settingsForCountry, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { priceOrder } from '../src/modules/orders/pricing.ts';
import { loadStoreSettings } from '../src/modules/stores/service.ts';
import { useDatabaseBefore } from './support/migration-before.ts';

const MIGRATION = '0037_tax_shipping_zones';
const { before } = useDatabaseBefore(MIGRATION);

const STORE = '5a0e5f9c-1111-4aaa-8aaa-000000000036';
const USER = '5a0e5f9c-2222-4aaa-8aaa-000000000036';
const SHIPPING = {
  free: { enabled: false, priceUsdc: '0.00', delivery: '10 days' },
  standard: { enabled: true, priceUsdc: '4.50', delivery: '3-5 days' },
  express: { enabled: true, priceUsdc: '9.00', delivery: 'Next day' },
};

describe(`migration ${MIGRATION}`, () => {
  test("an existing store's flat rate and methods become its rest-of-world zone; orders total the same", async () => {
    const { url, db, apiUrl } = await before('before_tax_zones');
    await db`insert into users (id, username, password) values (${USER}, 'before', 'x')`;
    await db`insert into stores (id, name, slug, owner_id, tax_rate_bps, shipping_options)
      values (${STORE}, 'Flat Shop', 'flat-shop', ${USER}, 725, ${db.json(SHIPPING)})`;

    await migrateDatabase(url);

    const [row] = await db<{ shipping_zones: unknown; prices_include_tax: boolean }[]>`
      select shipping_zones, prices_include_tax from stores where id = ${STORE}`;
    expect(row).toEqual({ shipping_zones: [], prices_include_tax: false });
    const app = createDatabase(apiUrl, { max: 1 });
    try {
      const settings = await loadStoreSettings(app.db, STORE);
      expect(settings.zones).toEqual([]);
      const items = [{ productId: 'p', title: 'Lamp', priceUsdc: '20.00', quantity: 2 }];
      const product = {
        id: 'p',
        title: 'Lamp',
        priceUsdc: '20.00',
        imageUrl: null,
        inventory: 0,
        trackInventory: false,
      };
      // 40.00 + 4.50 + 7.25% of 40.00 (2.90), as before the migration.
      const before = storeCheckoutTotals(items, 4_500_000n, 725);
      expect(before.totalUsdc).toBe('47.40');
      for (const country of ['US', 'DE', 'JP'] as const) {
        const zone = settingsForCountry(settings, country);
        expect(zone).toMatchObject({ zone: FALLBACK_ZONE_NAME, taxRateBps: 725 });
        expect(zone.shipping.standard.priceUsdc).toBe('4.50');
        const address =
          country === 'US'
            ? customer.shippingAddress
            : { ...customer.shippingAddress, country, state: undefined, zipCode: '10117' };
        const priced = priceOrder(
          {
            storeId: STORE,
            customerEmail: customer.customerEmail,
            shippingAddress: address as typeof customer.shippingAddress,
            items,
            subtotalUsdc: before.subtotalUsdc,
            shippingUsdc: before.shippingUsdc,
            totalUsdc: before.totalUsdc,
            status: 'pending',
            shippingMethod: 'standard',
          },
          new Map([['p', product]]),
          settings,
        );
        expect(priced.totals).toEqual(before);
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
