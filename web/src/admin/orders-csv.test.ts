import { describe, expect, it } from 'vitest';
import { ordersToCsv, orderTax } from './orders-csv.ts';
import type { MerchantOrder } from './types.ts';

const order: MerchantOrder = {
  id: 'o-2',
  storeId: 's1',
  source: 'storefront',
  payeeAddress: null,
  customerEmail: 'ada@example.com',
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+1 555 0100',
    street: '12 Analytical Way',
    city: 'Portland',
    country: 'US',
    state: 'OR',
    zipCode: '97201',
  },
  items: [{ productId: 'p-1', title: 'Hoodie', quantity: 1, priceUsdc: '25.99' }],
  subtotalUsdc: '25.99',
  discountCode: null,
  discountUsdc: '0.00',
  shippingUsdc: '12.99',
  taxUsdc: '2.08',
  totalUsdc: '41.06',
  status: 'paid',
  paymentChain: 'base',
  paymentTxHash: null,
  paymentAddress: null,
  metadata: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const rowsOf = (csv: string) => csv.trimEnd().split('\r\n');

describe('ordersToCsv', () => {
  it("names the chain the deployment pays on (its chain facts), never the stored 'base'", () => {
    const [header, row] = rowsOf(ordersToCsv([order], () => 'Moon Shop', 'Local chain 31337'));
    const column = (header ?? '').split(',').indexOf('"Chain"');
    expect(column).toBeGreaterThan(0);
    expect((row ?? '').split(',')[column]).toBe('"Local chain 31337"');
    expect(row).not.toContain('"base"');
    const unpaid = { ...order, paymentChain: null };
    expect(rowsOf(ordersToCsv([unpaid], () => 'Moon Shop', 'Base'))[1]).not.toContain('"Base"');
  });

  it('has discount and tax columns, so subtotal - discount + shipping + tax = total on each row', () => {
    const [header, row] = rowsOf(ordersToCsv([order], () => 'Moon Shop', 'Local chain 31337'));
    expect(header).toContain(
      '"Subtotal (USDC)","Discount Code","Discount (USDC)","Shipping (USDC)","Tax (USDC)","Total (USDC)"',
    );
    expect(row).toContain('"25.99","","0.00","12.99","2.08","41.06"');
    // 25.99 - 2.60 (10%) = 23.39; tax 8% 1.87; + 12.99 = 38.25.
    const discounted = {
      ...order,
      discountCode: 'SAVE10',
      discountUsdc: '2.60',
      taxUsdc: '1.87',
      totalUsdc: '38.25',
    };
    const [, discountedRow] = rowsOf(
      ordersToCsv([discounted], () => 'Moon Shop', 'Local chain 31337'),
    );
    expect(discountedRow).toContain('"25.99","SAVE10","2.60","12.99","1.87","38.25"');
    const withoutTax = { ...discounted, taxUsdc: undefined as unknown as string };
    const [, derivedRow] = rowsOf(
      ordersToCsv([withoutTax], () => 'Moon Shop', 'Local chain 31337'),
    );
    expect(derivedRow).toContain('"25.99","SAVE10","2.60","12.99","1.87","38.25"');
  });

  it('says whether the tax was added to the total or included in the prices', () => {
    const [header, row] = rowsOf(ordersToCsv([order], () => 'Moon Shop', 'Local chain 31337'));
    expect(header).toContain('"Tax (USDC)","Total (USDC)","Tax Included"');
    expect(row).toContain('"2.08","41.06","no"');
    // 119.00 with 19% inside (19.00) + 4.90 shipping = 123.90.
    const included = {
      ...order,
      subtotalUsdc: '119.00',
      shippingUsdc: '4.90',
      taxUsdc: '19.00',
      totalUsdc: '123.90',
    };
    const [, includedRow] = rowsOf(ordersToCsv([included], () => 'Moon Shop', 'Local chain 31337'));
    expect(includedRow).toContain('"119.00","","0.00","4.90","19.00","123.90","yes"');
  });

  it('carries the shipping address in its own columns', () => {
    const [header, row] = rowsOf(ordersToCsv([order], () => 'Moon Shop', 'Local chain 31337'));
    expect(header).toContain(
      '"Ship To","Phone","Street","City","State/Region","Postal Code","Country"',
    );
    expect(row).toMatch(
      /"Ada Lovelace","'?\+1 555 0100","12 Analytical Way","Portland","OR","97201","US"$/,
    );
  });

  it("has the forwarded net, fee and transactions, and the shipment's carrier and tracking", () => {
    const shipped: MerchantOrder = {
      ...order,
      forwarded: { merchantUsdc: '40.238800', feeUsdc: '0.821200', txHashes: ['0xaa', '0xbb'] },
      shipment: {
        carrier: 'UPS',
        trackingNumber: '1Z999',
        trackingUrl: 'https://ups.example/1Z999',
        shippedAt: '2025-01-02T00:00:00.000Z',
      },
    };
    const [header, row] = rowsOf(ordersToCsv([shipped], () => 'Moon Shop', 'Local chain 31337'));
    expect(header).toContain(
      '"Merchant Net (USDC)","Fee (USDC)","Forwarding Transactions","Carrier","Tracking Number","Tracking URL"',
    );
    expect(row).toContain(
      '"40.238800","0.821200","0xaa 0xbb","UPS","1Z999","https://ups.example/1Z999"',
    );
    const [, pending] = rowsOf(ordersToCsv([order], () => 'Moon Shop', 'Local chain 31337'));
    expect(pending).toContain('"","","","","",""');
  });

  it('leaves the address columns empty for an order without one', () => {
    const [, row] = rowsOf(
      ordersToCsv([{ ...order, shippingAddress: null }], () => '', 'Local chain 31337'),
    );
    expect(row?.endsWith('"","","","","","",""')).toBe(true);
  });
});

describe('orderTax', () => {
  it('reads the stored tax, or what an older cached order holds beyond subtotal and shipping', () => {
    expect(orderTax(order)).toBe('2.08');
    const { taxUsdc: _, ...older } = order;
    expect(orderTax(older)).toBe('2.08');
  });
});
