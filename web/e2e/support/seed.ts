// Seeds the e2e stack through the real API: a merchant, a themed store and its products.
import { DEFAULT_TAX_RATE_BPS, defaultShippingOptions } from '@store/shared';
import type { SeededProduct, StackInfo } from '@store/stack/stack-info';

/** The merchant's payout wallet: anvil test account 8 (the shoppers pay from accounts 1-7). */
export const MERCHANT_WALLET = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f';

const PRODUCTS = [
  {
    title: 'Aurora Hoodie',
    priceUsdc: '45.00',
    inventory: 12,
    description:
      'Heavyweight cotton hoodie with an aurora print, made to order and shipped in recycled packaging.',
  },
  {
    title: 'Ceramic Mug',
    priceUsdc: '12.50',
    inventory: 0,
    description: 'Stoneware mug, 350 ml, dishwasher safe.',
  },
  { title: 'Sticker Pack', priceUsdc: '4.99', inventory: 3, description: 'Five vinyl stickers.' },
] as const;

async function call<T>(
  apiUrl: string,
  path: string,
  body: unknown,
  cookie?: string,
): Promise<{ data: T; cookie?: string }> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`seed ${path}: ${response.status} ${await response.text()}`);
  const setCookie = response.headers.get('set-cookie')?.split(';')[0];
  return { data: (await response.json()) as T, ...(setCookie ? { cookie: setCookie } : {}) };
}

/** Creates the merchant, store and products; returns what the tests need. */
export async function seedStore(apiUrl: string): Promise<Pick<StackInfo, 'store' | 'products'>> {
  const signUp = await call(apiUrl, '/api/auth/sign-up', {
    username: `e2e-${Date.now()}`,
    password: 'correct horse battery',
  });
  const cookie = signUp.cookie;
  if (!cookie) throw new Error('seed: sign-up set no session cookie');
  const store = await call<{ id: string; slug: string; name: string }>(
    apiUrl,
    '/api/stores',
    {
      name: 'Aurora Goods',
      slug: 'aurora-goods',
      description: 'Cosy things for cold nights, paid in USDC.',
      logoUrl: '🌌',
      paymentAddress: MERCHANT_WALLET,
      theme: 'light',
      primaryColor: '#0f766e',
      secondaryColor: '#7c3aed',
      accentColor: '#db2777',
      // The journeys' settings (8% tax; free, standard and express shipping): they count on them.
      taxRateBps: DEFAULT_TAX_RATE_BPS,
      shippingOptions: defaultShippingOptions(),
    },
    cookie,
  );
  const products: SeededProduct[] = [];
  for (const product of PRODUCTS) {
    const created = await call<SeededProduct>(
      apiUrl,
      '/api/products',
      { ...product, storeId: store.data.id },
      cookie,
    );
    products.push({
      id: created.data.id,
      title: product.title,
      priceUsdc: product.priceUsdc,
      inventory: product.inventory,
    });
  }
  return { store: { ...store.data, paymentAddress: MERCHANT_WALLET }, products };
}
