// Local mode's demo merchant (`demo` / `demo-password`) with a demo store and a few products, so
// the dashboard and the storefront are not empty on first start. Never touches existing data.
import { NEW_STORE_TAX_RATE_BPS, newStoreShippingOptions } from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { products, storeSlugs, stores, users } from './db/schema.ts';

/** The demo merchant's sign-in and store. */
export const DEMO = {
  username: 'demo',
  password: 'demo-password',
  storeSlug: 'demo-store',
  // anvil's test account 9: it holds test USDC and receives the merchant's 98%.
  paymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
} as const;

const DEMO_PRODUCTS = [
  {
    title: 'Base Camp Hoodie',
    description: 'Heavyweight organic cotton hoodie with an embroidered Base logo. Unisex fit.',
    priceUsdc: '49.00',
    inventory: 25,
  },
  {
    title: 'Single-Origin Coffee Beans, 340 g',
    description: 'Washed Ethiopian Yirgacheffe, roasted to order: jasmine, lemon and black tea.',
    priceUsdc: '18.50',
    inventory: 0,
  },
  {
    title: 'Hardware Wallet Sleeve',
    description: 'Felt and leather sleeve that fits most hardware wallets and a seed card.',
    priceUsdc: '14.99',
    inventory: 40,
  },
  {
    title: 'USDC Enamel Pin',
    description: 'Hard enamel pin, 25 mm, with a rubber clutch.',
    priceUsdc: '6.00',
    inventory: 100,
  },
];

// Note: any fixed number; it only keeps two API processes from seeding at the same moment.
const SEED_LOCK = 7_240_002;

/** Creates the demo merchant, store and products when missing; true when anything was created. */
export async function seedDemoMerchant(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    let created = false;
    let [user] = await tx.select().from(users).where(eq(users.username, DEMO.username));
    if (!user) {
      const password = await Bun.password.hash(DEMO.password, { algorithm: 'argon2id' });
      [user] = await tx.insert(users).values({ username: DEMO.username, password }).returning();
      created = true;
    }
    const [existing] = await tx.select().from(stores).where(eq(stores.slug, DEMO.storeSlug));
    if (existing || !user) return created;
    const [store] = await tx
      .insert(stores)
      .values({
        name: 'Demo Store',
        slug: DEMO.storeSlug,
        description: 'A sample store to try the dashboard and the checkout with test USDC.',
        logoUrl: '☕',
        ownerId: user.id,
        paymentAddress: DEMO.paymentAddress,
        // A new store's settings: no tax, free shipping only, until its merchant sets them.
        taxRateBps: NEW_STORE_TAX_RATE_BPS,
        shippingOptions: newStoreShippingOptions(),
      })
      .returning({ id: stores.id });
    const storeId = (store as { id: string }).id;
    // Note: its slug is its owner's, as every store's (see `storeSlugs`).
    await tx
      .insert(storeSlugs)
      .values({ slug: DEMO.storeSlug, ownerId: user.id })
      .onConflictDoNothing();
    await tx.insert(products).values(DEMO_PRODUCTS.map((p) => ({ ...p, storeId })));
    return true;
  });
}
