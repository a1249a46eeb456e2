// Tax and shipping by country on a real Postgres: the owner sets zones of countries, each with its
// methods and tax rate (prices with the tax included or added); an order is priced by the zone of
// its shipping country (a country in no zone: the store's own rate and methods), a price or method
// of another zone is refused, and the receipt and invoice carry the tax the server computed.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseUsdc,
  resolveStoreSettings,
  type ShippingAddress,
  STORE_SETTINGS_MESSAGES,
  settingsForCountry,
  storeCheckoutTotals,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import { REQUEST_ORIGIN_MESSAGES } from '../src/http/request-origin.ts';
import { renderInvoicePdf } from '../src/mail/invoice-pdf.ts';
import { renderReceipt } from '../src/mail/receipt.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

const methods = (standard: string, express: string, free = false) => ({
  free: { enabled: free, priceUsdc: '0.00', delivery: '10-14 days' },
  standard: { enabled: true, priceUsdc: standard, delivery: '3-5 days' },
  express: { enabled: true, priceUsdc: express, delivery: 'Next day' },
});
const ZONES = [
  {
    name: 'Germany',
    countries: ['DE'],
    taxRateBps: 1900,
    shippingOptions: methods('4.90', '9.90'),
  },
  {
    name: 'United States',
    countries: ['US'],
    taxRateBps: 725,
    shippingOptions: methods('12.99', '24.99', true),
  },
];
const BERLIN: ShippingAddress = {
  firstName: 'Lena',
  lastName: 'Schmidt',
  email: 'lena@example.de',
  phone: '+49 30 1234567',
  street: 'Unter den Linden 1',
  city: 'Berlin',
  country: 'DE',
  zipCode: '10117',
} as ShippingAddress;
const TOKYO: ShippingAddress = {
  ...BERLIN,
  city: 'Tokyo',
  country: 'JP',
  zipCode: '100-0001',
  street: '1-1 Chiyoda',
} as ShippingAddress;

async function zonedStore() {
  const store = (
    await t.owner.api.post(
      '/api/stores',
      storeForm({ taxRateBps: 0, shippingOptions: methods('20.00', '40.00') }),
    )
  ).body as { id: string; slug: string };
  const mug = (
    await t.owner.api.post('/api/products', { storeId: store.id, title: 'Mug', priceUsdc: '50.00' })
  ).body as { id: string; title: string; priceUsdc: string };
  const saved = await t.owner.api.put(`/api/stores/${store.id}`, { shippingZones: ZONES });
  expect(saved.status).toBe(200);
  return { store, mug };
}

type Mug = { id: string; title: string; priceUsdc: string };
/** An order body as the checkout builds it: priced with `shippingUsdc` and `taxBps` (added). */
function orderBody(
  storeId: string,
  mug: Mug,
  address: ShippingAddress,
  shippingMethod: 'free' | 'standard' | 'express',
  amounts: { shippingUsdc: string; taxBps: number; included?: boolean },
) {
  const items = [{ productId: mug.id, title: mug.title, priceUsdc: mug.priceUsdc, quantity: 2 }];
  const totals = storeCheckoutTotals(
    items,
    parseUsdc(amounts.shippingUsdc),
    amounts.taxBps,
    0n,
    amounts.included ?? false,
  );
  return {
    storeId,
    customerEmail: address.email,
    shippingAddress: address,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    shippingMethod,
  };
}

describe('tax and shipping by country', () => {
  test("a German address gets the German zone's shipping and tax, a US one the US zone's, others the rest of the world's", async () => {
    const { store, mug } = await zonedStore();
    const read = await t.shopper.get(`/api/stores/${store.slug}`);
    expect(read.body).toMatchObject({ shippingZones: ZONES, pricesIncludeTax: false });

    const de = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, BERLIN, 'standard', { shippingUsdc: '4.90', taxBps: 1900 }),
    );
    expect(de.status).toBe(201);
    // 100.00 + 4.90 + 19% of 100.00
    expect(de.body).toMatchObject({
      subtotalUsdc: '100.00',
      shippingUsdc: '4.90',
      taxUsdc: '19.00',
      totalUsdc: '123.90',
    });

    const us = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, customer.shippingAddress, 'express', {
        shippingUsdc: '24.99',
        taxBps: 725,
      }),
    );
    expect(us.status).toBe(201);
    expect(us.body).toMatchObject({ shippingUsdc: '24.99', taxUsdc: '7.25', totalUsdc: '132.24' });

    const jp = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, TOKYO, 'standard', { shippingUsdc: '20.00', taxBps: 0 }),
    );
    expect(jp.status).toBe(201);
    expect(jp.body).toMatchObject({ shippingUsdc: '20.00', taxUsdc: '0.00', totalUsdc: '120.00' });

    // The owner's order page reads what the server stored.
    const own = await t.owner.api.get(`/api/orders/${(de.body as { id: string }).id}`);
    expect(own.body).toMatchObject({ shippingUsdc: '4.90', taxUsdc: '19.00', totalUsdc: '123.90' });
  });

  test('a price or method of another zone is refused with what the zone charges', async () => {
    const { store, mug } = await zonedStore();
    // The US standard price and rate sent for a German address.
    const usPrice = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, BERLIN, 'standard', { shippingUsdc: '12.99', taxBps: 725 }),
    );
    expect(usPrice.status).toBe(422);
    expect(usPrice.body.error.message).toBe(
      STORE_SETTINGS_MESSAGES.zoneShippingPrice('Standard', 'Germany', '4.90'),
    );
    // Free shipping is the US zone's only.
    const free = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, BERLIN, 'free', { shippingUsdc: '0.00', taxBps: 1900 }),
    );
    expect(free.status).toBe(422);
    expect(free.body.error.message).toBe(STORE_SETTINGS_MESSAGES.zoneMethodOff('Free', 'Germany'));
    // The right shipping with the rest of the world's tax (0%) does not add up either.
    const noTax = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, BERLIN, 'standard', { shippingUsdc: '4.90', taxBps: 0 }),
    );
    expect(noTax.status).toBe(422);
  });

  test('prices with the tax included: the tax is shown inside the total, not added', async () => {
    const { store, mug } = await zonedStore();
    await t.owner.api.put(`/api/stores/${store.id}`, { pricesIncludeTax: true });
    const added = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, BERLIN, 'standard', { shippingUsdc: '4.90', taxBps: 1900 }),
    );
    expect(added.status).toBe(422);
    const placed = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, BERLIN, 'standard', {
        shippingUsdc: '4.90',
        taxBps: 1900,
        included: true,
      }),
    );
    expect(placed.status).toBe(201);
    // 19% inside 100.00 = 15.966 -> 15.97; total 100.00 + 4.90.
    const order = placed.body as Parameters<typeof renderReceipt>[0] & { taxUsdc: string };
    expect(order).toMatchObject({ taxUsdc: '15.97', totalUsdc: '104.90' });
    const receipt = renderReceipt(
      { ...order, paymentTxHash: null, metadata: null, source: 'storefront' },
      { name: 'Zones', primaryColor: null, replyTo: null },
      31337,
    );
    expect(receipt.text).toContain('Tax included: 15.97 USDC');
    expect(receipt.text).toContain('Total paid: 104.90 USDC');
    // The invoice prints the same figures, its tax as included.
    const pdf = await renderInvoicePdf({
      number: 'INV-000001',
      issuedAt: new Date(),
      orderNumber: '#1',
      orderedAt: new Date(),
      seller: { name: 'Zones', storeName: 'Zones', addressLines: [], taxId: null },
      buyer: null,
      lines: [{ title: 'Mug', quantity: 2, unitUsdc: '50.00', totalUsdc: '100.00' }],
      subtotalUsdc: order.subtotalUsdc,
      discountUsdc: null,
      shippingUsdc: order.shippingUsdc,
      taxUsdc: order.taxUsdc,
      totalUsdc: order.totalUsdc,
      payment: { chain: 'Local chain', txHash: null, paidAt: null },
    });
    const dir = mkdtempSync(join(tmpdir(), 'zones-invoice-'));
    try {
      writeFileSync(join(dir, 'invoice.pdf'), pdf);
      const text = spawnSync('pdftotext', ['-layout', join(dir, 'invoice.pdf'), '-']);
      expect(text.status).toBe(0);
      expect(text.stdout.toString()).toMatch(/Tax included\s+15\.97 USDC/);
      expect(text.stdout.toString()).toMatch(/Total\s+104\.90 USDC/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('only the owner edits the zones, as JSON, within the caps', async () => {
    const { store } = await zonedStore();
    const body = { shippingZones: [ZONES[0]] };
    expect((await t.shopper.put(`/api/stores/${store.id}`, body)).status).toBe(401);
    expect((await t.other.api.put(`/api/stores/${store.id}`, body)).status).toBe(404);
    const form = await t.app.handle(
      new Request(`http://localhost/api/stores/${store.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: t.owner.cookie },
        body: new URLSearchParams({ pricesIncludeTax: 'true' }).toString(),
      }),
    );
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: { message: string } }).error.message).toBe(
      REQUEST_ORIGIN_MESSAGES.jsonOnly,
    );
    expect((await t.shopper.get(`/api/stores/${store.slug}`)).body).toMatchObject({
      shippingZones: ZONES,
      pricesIncludeTax: false,
    });

    const twice = await t.owner.api.put(`/api/stores/${store.id}`, {
      shippingZones: [ZONES[0], { ...ZONES[1], countries: ['US', 'DE'] }],
    });
    expect(twice.status).toBe(422);
    expect(JSON.stringify(twice.body)).toContain(
      STORE_SETTINGS_MESSAGES.countryTwice('DE', 'Germany', 'United States'),
    );
    const unknown = await t.owner.api.put(`/api/stores/${store.id}`, {
      shippingZones: [{ ...ZONES[0], countries: ['XX'] }],
    });
    expect(unknown.status).toBe(422);
    const many = await t.owner.api.put(`/api/stores/${store.id}`, {
      shippingZones: Array.from({ length: 21 }, (_, i) => ({
        ...ZONES[0],
        name: `Zone ${i}`,
        countries: [['AT', 'BE', 'CH', 'DK', 'ES', 'FI', 'FR', 'GR', 'IE', 'IT', 'LU'][i % 11]],
      })),
    });
    expect(many.status).toBe(422);

    // Removing the zones: every country gets the store's own rate and methods again.
    const cleared = await t.owner.api.put(`/api/stores/${store.id}`, { shippingZones: [] });
    expect(cleared.body).toMatchObject({ shippingZones: [] });
    const settings = settingsForCountry(resolveStoreSettings(cleared.body), 'DE');
    expect(settings.shipping.standard.priceUsdc).toBe('20.00');
  });
});
