// Prints the README's example queries (bench/analytics/queries.ts) with their output on a local
// chain: a stack at Base's pace, the API and the worker, two stores and a universal checkout paid
// from anvil's accounts (exact, under then completed, over), read as the analysts' role.
//   bun bench/analytics/readme.ts
import { DEFAULT_TAX_RATE_BPS, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import postgres from 'postgres';
import { type Address, parseUnits } from 'viem';
import { startBenchStack } from '../bench-stack.ts';
import { EXAMPLE_QUERIES, psqlTable } from './queries.ts';

// biome-ignore lint/suspicious/noExplicitAny: the script reads the API's JSON loosely.
type Json = any;

const { stack, start, startApi, stop } = await startBenchStack('analytics-readme', {
  CONFIRMATIONS: '2',
});
try {
  start('worker', 'worker.ts');
  const api = await startApi('api');
  let cookie = '';
  const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { 'content-type': 'application/json', cookie, origin: api },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0] ?? '';
    const json: Json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
    return json;
  };
  await call('POST', '/api/auth/sign-up', {
    username: 'analyst-demo',
    password: 'correct horse battery',
  });
  const payout = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f';
  const storeOrder = async (storeId: string, price: string) => {
    const product = await call('POST', '/api/products', {
      storeId,
      title: 'Mug',
      priceUsdc: price,
      inventory: 50,
    });
    const items = [{ productId: product.id, title: 'Mug', priceUsdc: price, quantity: 1 }];
    const totals = storeCheckoutTotals(items, 0n);
    const order = await call('POST', '/api/orders', {
      storeId,
      ...customer,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
    });
    const wallet = await call('POST', `/api/orders/${order.id}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    return { address: wallet.paymentWallet.address as Address, total: order.totalUsdc as string };
  };
  const candles = await call('POST', '/api/stores', {
    name: 'Candle Co',
    slug: 'candle-co',
    paymentAddress: payout,
    taxRateBps: DEFAULT_TAX_RATE_BPS,
  });
  const tea = await call('POST', '/api/stores', {
    name: 'Tea House',
    slug: 'tea-house',
    paymentAddress: payout,
    taxRateBps: DEFAULT_TAX_RATE_BPS,
  });
  const pay = (from: number, to: Address, amount: string) =>
    payUsdc(stack.env, from, to, parseUnits(amount, 6));

  const a = await storeOrder(candles.id, '10.00');
  await pay(1, a.address, a.total); // exact
  const b = await storeOrder(candles.id, '25.00');
  await pay(2, b.address, '20.00'); // under, then completed
  await pay(2, b.address, (Number(b.total) - 20).toFixed(2));
  const c = await storeOrder(tea.id, '8.00');
  await pay(3, c.address, (Number(c.total) + 1).toFixed(2)); // over by 1 USDC
  const d = await storeOrder(tea.id, '4.50');
  await pay(4, d.address, d.total);
  const universal = await call('POST', '/api/universal-orders', {
    storeName: 'Corner Shop',
    storePaymentAddress: payout,
    externalOrderId: 'ext-1001',
    ...customer,
    items: [{ productId: 'u-1', title: 'Print', priceUsdc: '15.00', quantity: 1 }],
    subtotalUsdc: '15.00',
    shippingUsdc: '0.00',
    totalUsdc: '15.00',
    paymentChain: 'base',
  });
  await pay(5, universal.paymentWallet.address, '15.00');

  // Note: dates as Postgres prints them (not parsed into midnight timestamps).
  const asText = { to: 1082, from: [1082], serialize: String, parse: String };
  const analyst = postgres(stack.databaseUrls.analyst, {
    max: 1,
    onnotice: () => {},
    types: { date: asText },
  });
  // Forwarded and indexed: every order's merchant leg mined.
  for (let i = 0; i < 600; i++) {
    const [row] = await analyst<{ n: number }[]>`
      select count(distinct order_id)::int as n from analytics.settlements
      where leg = 'merchant' and mined_at is not null`;
    if ((row?.n ?? 0) >= 5) break;
    await Bun.sleep(100);
  }
  const out: string[] = [];
  for (const query of EXAMPLE_QUERIES) {
    const rows = await analyst.unsafe(query.sql);
    const columns = rows.columns.map((c) => c.name);
    out.push(
      `**${query.question}**`,
      '',
      '```sql',
      query.sql,
      '```',
      '',
      '```',
      psqlTable([...rows], columns),
      '```',
      '',
    );
  }
  await analyst.end({ timeout: 5 });
  console.log(out.join('\n'));
} finally {
  await stop();
}
