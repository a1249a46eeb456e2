import { DEFAULT_TAX_RATE_BPS, type Product, type PublicStore } from '@store/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addToCart, readCart } from '../../../../db/cart.ts';
import { db } from '../../../../db/db.ts';
import { reviewTokenOf } from '../../../../lib/review-tokens.ts';
import { dismissToast } from '../../../../lib/toast.ts';
import { byLabel, byText, click, typeInto, waitFor } from '../../../../test-dom.ts';
import { renderAt } from '../../../../test-utils.tsx';
import { addedToCartToast } from './product-card.tsx';

const store: PublicStore = {
  id: 'store-1',
  name: 'Aurora Goods',
  slug: 'aurora',
  description: 'Cosy things',
  domain: null,
  logoUrl: '🌌',
  theme: 'light',
  primaryColor: '#0f766e',
  secondaryColor: '#7c3aed',
  accentColor: '#db2777',
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  productCount: 1,
  taxRateBps: DEFAULT_TAX_RATE_BPS,
  shippingOptions: null,
  shippingZones: [],
  pricesIncludeTax: false,
  shippingTime: null,
  returnPolicyDays: null,
  verified: false,
};
const mug: Product = {
  id: 'prod-1',
  storeId: 'store-1',
  title: 'Ceramic Mug',
  description: 'x'.repeat(120),
  imageUrl: null,
  priceUsdc: '12.50',
  isPublished: true,
  inventory: 0,
  trackInventory: false,
  soldOut: false,
  createdAt: '2026-01-15T10:00:00.000Z',
  updatedAt: '2026-01-15T10:00:00.000Z',
  digital: null,
  x402Url: null,
  maxPriceUsdc: null,
};

const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);
let products: Product[] | 'pending' = [mug];
const orders: unknown[] = [];
/** The product's reviews as GET /api/products/prod-1/reviews answers. */
let reviews: unknown = { reviews: [], count: 0, averageRating: null };
/** Store fields that tests change (settings, verification). */
let storePatch: Partial<PublicStore> = {};

beforeEach(async () => {
  await Promise.all([
    db.cartItems.clear(),
    db.stores.clear(),
    db.products.clear(),
    db.settings.clear(),
  ]);
  orders.length = 0;
  products = [mug];
  reviews = { reviews: [], count: 0, averageRating: null };
  storePatch = {};
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    // The deployment settles on Base mainnet.
    if (url === '/api/health')
      return Response.json({
        chain: { chainId: 8453, usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      });
    if (url === '/api/stores/aurora') return Response.json({ ...store, ...storePatch });
    if (url === '/api/products/prod-1/reviews') return Response.json(reviews);
    // Note: the store page asks by slug (at once, beside the store), the cart page by id.
    if (/^\/api\/stores\/(store-1|aurora)\/products/.test(url)) {
      if (products === 'pending') return new Promise<Response>(() => {});
      return Response.json(products);
    }
    if (url === '/api/products/prod-1') return Response.json(mug);
    if (url === '/api/orders' && init?.method === 'POST') {
      orders.push(JSON.parse(String(init.body)));
      return Response.json(
        {
          id: 'order-123',
          storeId: 'store-1',
          source: 'storefront',
          payeeAddress: null,
          customerEmail: 'a@b.co',
          shippingAddress: null,
          items: [],
          subtotalUsdc: '0.00',
          discountCode: null,
          discountUsdc: '0.00',
          shippingUsdc: '0.00',
          taxUsdc: '0.00',
          totalUsdc: '0.00',
          status: 'pending',
          paymentChain: null,
          paymentTxHash: null,
          paymentAddress: null,
          metadata: null,
          createdAt: '2026-01-15T10:00:00.000Z',
          updatedAt: '2026-01-15T10:00:00.000Z',
          reviewToken: 'ab'.repeat(32),
        },
        { status: 201 },
      );
    }
    return Response.json({ error: { message: 'Not found' } }, { status: 404 });
  });
});

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  dismissToast();
});

async function render(path: string) {
  const view = await renderAt(path);
  cleanup = view.unmount;
  return view;
}

describe('storefront', () => {
  it('shows 8 skeleton cards while the products load', async () => {
    products = 'pending';
    const { container } = await render('/store/aurora');
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Aurora Goods'));
    expect(container.querySelectorAll('[data-testid="skeleton-card"]')).toHaveLength(8);
  });

  it('lists products with descriptions cut to 100 characters, and the empty state', async () => {
    const { container } = await render('/store/aurora');
    await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(1));
    expect(container.querySelector('.product-card-description')?.textContent).toBe(
      `${'x'.repeat(100)}…`,
    );
    expect(byText(container, 'Checkout', 'button')?.hasAttribute('disabled')).toBe(true);
    cleanup?.();
    products = [];
    await db.products.clear();
    const empty = await render('/store/aurora');
    await waitFor(() => expect(empty.container.textContent).toContain('No products available'));
    expect(empty.container.textContent).toContain("This store doesn't have any products yet.");
  });
});

/** A shopper's checkout details, field by field. */
const ADA: [string, string][] = [
  ['Email', 'ada@example.com'],
  ['Phone', '555-0100'],
  ['First name', 'Ada'],
  ['Last name', 'Lovelace'],
  ['Street address', '1 Main St'],
  ['City', 'Washington'],
  ['State', 'DC'],
  ['ZIP code', '20001'],
];

describe('store checkout', () => {
  it('shows the schema messages, then creates the order, clears the cart and goes to payment', async () => {
    await addToCart(
      { productId: 'prod-1', storeId: 'store-1', title: 'Ceramic Mug', priceUsdc: '12.50' },
      2,
    );
    const { container, router } = await render('/store/aurora/checkout');
    await waitFor(() => expect(byText(container, 'Proceed to Payment', 'button')).toBeDefined());
    expect(byText(container, 'Edit cart', 'a')?.getAttribute('href')).toBe('/store/aurora/cart');
    // Default free shipping: 25.00 + 2.00 tax.
    expect(container.querySelector('[data-testid="order-total"]')?.textContent).toBe('27.00 USDC');
    await click(byText(container, 'Proceed to Payment', 'button') ?? null);
    await waitFor(() => expect(container.textContent).toContain('Invalid email address'));
    for (const message of [
      'Phone number is required',
      'State is required',
      'ZIP code is required',
    ]) {
      expect(container.textContent).toContain(message);
    }
    expect(orders).toHaveLength(0);

    for (const [label, value] of ADA) await typeInto(byLabel(container, label) ?? null, value);
    await click(container.querySelector('input[value="express"]'));
    expect(container.querySelector('[data-testid="order-total"]')?.textContent).toBe('51.99 USDC');
    await click(byText(container, 'Proceed to Payment', 'button') ?? null);
    await waitFor(() => expect(orders).toHaveLength(1));
    expect(orders[0]).toMatchObject({
      storeId: 'store-1',
      customerEmail: 'ada@example.com',
      subtotalUsdc: '25.00',
      shippingUsdc: '24.99',
      totalUsdc: '51.99',
      shippingMethod: 'express',
      shippingAddress: { state: 'DC', zipCode: '20001', email: 'ada@example.com' },
    });
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/store/aurora/payment/order-123'),
    );
    expect(await readCart('store-1')).toEqual([]);
    // The buyer's review token is kept in this browser (the review links need it), not shown.
    expect(reviewTokenOf('order-123')).toBe('ab'.repeat(32));
  });

  it("keeps a shopper's details only when asked, and offers them (never fills them in) after", async () => {
    const mugLine = {
      productId: 'prod-1',
      storeId: 'store-1',
      title: 'Ceramic Mug',
      priceUsdc: '12.50',
    };
    // An earlier version kept every checkout's details unasked: they are dropped, unread.
    await db.settings.put({ key: 'shippingAddress', value: { email: 'old@example.com' } });
    const checkout = async (remember: boolean) => {
      await addToCart(mugLine);
      const view = await render('/store/aurora/checkout');
      await waitFor(() =>
        expect(byText(view.container, 'Proceed to Payment', 'button')).toBeDefined(),
      );
      expect(view.container.textContent).not.toContain('old@example.com');
      for (const [label, value] of ADA)
        await typeInto(byLabel(view.container, label) ?? null, value);
      const box = byLabel(view.container, 'Remember me on this device');
      expect((box as HTMLInputElement).checked).toBe(false);
      if (remember) await click(box ?? null);
      await click(byText(view.container, 'Proceed to Payment', 'button') ?? null);
      await waitFor(() => expect(view.router.state.location.pathname).toContain('/payment/'));
      return view;
    };
    // Not asked: nothing is kept, and the next checkout starts empty.
    await checkout(false);
    expect(await db.settings.get('rememberedShopper')).toBeUndefined();
    expect(await db.settings.get('shippingAddress')).toBeUndefined();
    // Asked: kept, and the next checkout offers them by a masked name; the fields stay empty.
    await checkout(true);
    await addToCart(mugLine);
    const next = await render('/store/aurora/checkout');
    await waitFor(() => expect(next.container.textContent).toContain('Saved on this device'));
    expect(next.container.textContent).toContain('Ada L. (a…@example.com)');
    expect(next.container.textContent).not.toContain('555-0100');
    expect((byLabel(next.container, 'Email') as HTMLInputElement).value).toBe('');
    await click(byText(next.container, 'Use these details', 'button') ?? null);
    await waitFor(() =>
      expect((byLabel(next.container, 'Email') as HTMLInputElement).value).toBe('ada@example.com'),
    );
    expect((byLabel(next.container, 'Phone') as HTMLInputElement).value).toBe('555-0100');
    // Once used, the device can still be told to forget them (the form keeps what is filled in).
    expect(byText(next.container, 'Use these details', 'button')).toBeUndefined();
    await click(byText(next.container, 'Forget my details', 'button') ?? null);
    await waitFor(() => expect(next.container.textContent).not.toContain('Saved on this device'));
    expect(next.container.textContent).toContain("no shopper's details are kept on this device");
    expect((byLabel(next.container, 'Email') as HTMLInputElement).value).toBe('ada@example.com');
    for (let tries = 0; tries < 50 && (await db.settings.get('rememberedShopper')); tries++)
      await new Promise((done) => setTimeout(done, 20));
    expect(await db.settings.get('rememberedShopper')).toBeUndefined();
  });

  it("shows the chosen country's zone methods and tax, and no tax row where none is charged", async () => {
    const methods = (standard: string, express: string) => ({
      free: { enabled: false, priceUsdc: '0.00', delivery: '10 days' },
      standard: { enabled: true, priceUsdc: standard, delivery: '3-5 days' },
      express: { enabled: true, priceUsdc: express, delivery: 'Next day' },
    });
    storePatch = {
      taxRateBps: 0,
      shippingOptions: methods('20.00', '40.00'),
      shippingZones: [
        {
          name: 'EU',
          countries: ['DE', 'AT'],
          taxRateBps: 1900,
          shippingOptions: methods('4.90', '9.90'),
        },
      ],
    };
    await addToCart(
      { productId: 'prod-1', storeId: 'store-1', title: 'Ceramic Mug', priceUsdc: '12.50' },
      2,
    );
    const { container } = await render('/store/aurora/checkout');
    await waitFor(() => expect(byText(container, 'Proceed to Payment', 'button')).toBeDefined());
    const total = () => container.querySelector('[data-testid="order-total"]')?.textContent;
    // The United States is in no zone: the store's own methods, no tax and no tax row.
    expect(container.textContent).toContain('Shipping to United States: Rest of world rates');
    expect(container.textContent).not.toContain('tax');
    expect(total()).toBe('45.00 USDC');
    await typeInto(byLabel(container, 'Country') ?? null, 'DE');
    await waitFor(() => expect(container.textContent).toContain('Shipping to Germany: EU rates'));
    // 25.00 + 4.90 + 19% of 25.00 (4.75).
    expect(container.textContent).toContain('Estimated tax (19%)');
    expect(total()).toBe('34.65 USDC');
    expect(container.querySelector('input[value="free"]')).toBeNull();
  });

  it('shows the empty-cart card with a way back', async () => {
    const { container } = await render('/store/aurora/checkout');
    await waitFor(() =>
      expect(container.querySelector('h1')?.textContent).toBe('Your cart is empty'),
    );
    expect(container.textContent).toContain('Add some products before checking out.');
    // Note: with the trailing slash, so an installed store app (scope /store/{slug}/) stays in scope.
    expect(byText(container, 'Back to Store', 'a')?.getAttribute('href')).toBe('/store/aurora/');
  });
});

describe('product page', () => {
  it('claims only what is true: the one chain, no invented rating or reviews, no badge', async () => {
    const { container } = await render('/store/aurora/product/prod-1');
    await waitFor(() => expect(container.textContent).toContain('No reviews yet.'));
    const text = container.textContent ?? '';
    await waitFor(() =>
      expect(container.querySelector('[data-testid="accepted-method"]')?.textContent).toBe(
        'USDC on Base',
      ),
    );
    for (const invented of ['Ethereum', 'Polygon', 'Verified Store', 'out of 5', 'Fast Shipping'])
      expect(text).not.toContain(invented);
    expect(container.querySelector('[data-testid="rating-summary"]')).toBeNull();
    // The defaults until the store sets its own.
    expect(container.querySelector('.trust-cards')?.textContent).toContain('2-7 days');
    expect(container.querySelector('.trust-cards')?.textContent).toContain('Within 30 days');
  });

  it("shows real reviews with their average, the store's settings and its earned badge", async () => {
    storePatch = { verified: true, shippingTime: 'Same day', returnPolicyDays: 0 };
    reviews = {
      reviews: [
        {
          id: 'r1',
          productId: 'prod-1',
          rating: 4,
          title: 'Solid',
          body: 'Keeps tea hot.',
          authorName: 'Ada',
          createdAt: '2026-01-02T03:04:05.000Z',
          verifiedPurchase: true,
        },
      ],
      count: 1,
      averageRating: 4,
    };
    const { container } = await render('/store/aurora/product/prod-1');
    await waitFor(() =>
      expect(container.querySelector('[data-testid="rating-summary"]')?.textContent).toContain(
        '4.0 (1 review)',
      ),
    );
    await waitFor(() => expect(container.textContent).toContain('Verified Store'));
    const reviewsTab = container.querySelector('[data-testid="reviews"]')?.textContent ?? '';
    expect(reviewsTab).toContain('Verified purchase');
    expect(reviewsTab).toContain('Keeps tea hot.');
    expect(container.querySelector('.trust-cards')?.textContent).toContain('Same day');
    expect(container.querySelector('.trust-cards')?.textContent).toContain('No returns');
  });

  it('limits the quantity to the stock, and Buy Now adds to the cart and opens checkout', async () => {
    mug.inventory = 3;
    const { container, router } = await render('/store/aurora/product/prod-1');
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Ceramic Mug'));
    const minus = container.querySelector('[aria-label="Decrease quantity"]');
    const plus = container.querySelector('[aria-label="Increase quantity"]');
    expect(minus?.hasAttribute('disabled')).toBe(true);
    await click(plus);
    await click(plus);
    expect((byLabel(container, 'Quantity') as HTMLInputElement).value).toBe('3');
    expect(plus?.hasAttribute('disabled')).toBe(true);
    expect(minus?.hasAttribute('disabled')).toBe(false);
    await click(byText(container, 'Buy Now', 'button') ?? null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/store/aurora/checkout'));
    expect((await readCart('store-1')).map((line) => line.quantity)).toEqual([3]);
    mug.inventory = 0;
  });

  it('a sold-out product says so and cannot be bought, on its page and its card', async () => {
    Object.assign(mug, { inventory: 0, trackInventory: true, soldOut: true });
    try {
      const { container } = await render('/store/aurora/product/prod-1');
      await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Ceramic Mug'));
      expect(container.textContent).toContain('Sold out');
      expect(container.textContent).not.toContain('In stock');
      expect(byLabel(container, 'Quantity')).toBeUndefined();
      for (const button of container.querySelectorAll('.product-buy button'))
        expect(button.hasAttribute('disabled')).toBe(true);
      const store = await render('/store/aurora');
      await waitFor(() =>
        expect(
          store.container
            .querySelector('[aria-label="Add to Cart: Ceramic Mug"]')
            ?.hasAttribute('disabled'),
        ).toBe(true),
      );
      expect(await readCart('store-1')).toEqual([]);
    } finally {
      Object.assign(mug, { inventory: 0, trackInventory: false, soldOut: false });
    }
  });

  it('shows Product Not Found for an unknown product', async () => {
    const { container } = await render('/store/aurora/product/nope');
    await waitFor(() =>
      expect(container.querySelector('h1')?.textContent).toBe('Product Not Found'),
    );
    expect(container.textContent).toContain("The product you're looking for doesn't exist.");
    expect(byText(container, 'Return Home', 'a')?.getAttribute('href')).toBe('/');
  });
});

const hoodie = { productId: 'prod-2', storeId: 'store-1', title: 'Hoodie', priceUsdc: '45.00' };

describe('cart page', () => {
  it('lists each line with its unit price and total, within the stock limit; 0 and Remove remove', async () => {
    mug.inventory = 3;
    await addToCart(
      { productId: 'prod-1', storeId: 'store-1', title: 'Ceramic Mug', priceUsdc: '12.50' },
      1,
    );
    await addToCart(hoodie, 2);
    const { container } = await render('/store/aurora/cart');
    await waitFor(() =>
      expect(container.querySelectorAll('[data-testid="cart-line"]')).toHaveLength(2),
    );
    const [mugLine, hoodieLine] = [...container.querySelectorAll('[data-testid="cart-line"]')];
    expect(mugLine?.querySelector('[data-testid="unit-price"]')?.textContent).toBe('12.50 USDC');
    expect(mugLine?.querySelector('[data-testid="line-total"]')?.textContent).toBe('12.50 USDC');
    expect(hoodieLine?.querySelector('[data-testid="line-total"]')?.textContent).toBe('90.00 USDC');
    expect(container.querySelector('[data-testid="cart-subtotal"]')?.textContent).toBe(
      '102.50 USDC',
    );
    // No image: a drawn placeholder, not an emoji or a broken image.
    expect(mugLine?.querySelector('[data-testid="image-placeholder"] svg')).not.toBeNull();

    const plus = mugLine?.querySelector('[aria-label="Increase quantity of Ceramic Mug"]') ?? null;
    const minus = mugLine?.querySelector('[aria-label="Decrease quantity of Ceramic Mug"]') ?? null;
    expect(minus?.hasAttribute('disabled')).toBe(true);
    const quantityOfMug = byLabel(container, 'Quantity of Ceramic Mug') as HTMLInputElement;
    // Two quick taps count twice, before IndexedDB has answered the first.
    await act(async () => {
      (plus as HTMLButtonElement).click();
    });
    await act(async () => {
      (plus as HTMLButtonElement).click();
    });
    await waitFor(() => expect(quantityOfMug.value).toBe('3'));
    // The catalogue's stock (3) is the limit: plus stops there and the page says why.
    await waitFor(() => expect(plus?.hasAttribute('disabled')).toBe(true));
    await waitFor(() =>
      expect(mugLine?.querySelector('[data-testid="line-total"]')?.textContent).toBe('37.50 USDC'),
    );
    expect(mugLine?.querySelector('[data-testid="line-note"]')?.textContent).toBe(
      'Only 3 available',
    );
    expect(container.querySelector('[data-testid="cart-subtotal"]')?.textContent).toBe(
      '127.50 USDC',
    );

    // A typed quantity beyond the stock is capped; a typed 0 removes the line.
    const field = byLabel(container, 'Quantity of Hoodie') as HTMLInputElement;
    await typeInto(field, '150');
    field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    await waitFor(() => expect(field.value).toBe('99'));
    expect(hoodieLine?.querySelector('[data-testid="line-note"]')?.textContent).toBe(
      'At most 99 per order',
    );
    await typeInto(field, '0');
    field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    await waitFor(() =>
      expect(container.querySelectorAll('[data-testid="cart-line"]')).toHaveLength(1),
    );
    expect((await readCart('store-1')).map((line) => [line.title, line.quantity])).toEqual([
      ['Ceramic Mug', 3],
    ]);
    expect(byText(container, 'Checkout', 'a')?.getAttribute('href')).toBe('/store/aurora/checkout');

    await click(byText(container, 'Remove', 'button') ?? null);
    await waitFor(() =>
      expect(container.querySelector('h2')?.textContent).toBe('Your cart is empty'),
    );
    expect(await readCart('store-1')).toEqual([]);
    mug.inventory = 0;
  });

  it('lowers a line to the stock when the catalogue now has less than the cart holds', async () => {
    mug.inventory = 2;
    await addToCart(
      { productId: 'prod-1', storeId: 'store-1', title: 'Ceramic Mug', priceUsdc: '12.50' },
      5,
    );
    const { container } = await render('/store/aurora/cart');
    await waitFor(() =>
      expect(container.querySelector('[data-testid="line-note"]')?.textContent).toBe(
        'Only 2 available: quantity lowered to 2',
      ),
    );
    expect((await readCart('store-1')).map((line) => line.quantity)).toEqual([2]);
    await waitFor(() =>
      expect(container.querySelector('[data-testid="cart-subtotal"]')?.textContent).toBe(
        '25.00 USDC',
      ),
    );
    mug.inventory = 0;
  });

  it('is reached from the cart summary of the storefront', async () => {
    await addToCart(hoodie, 2);
    const { container } = await render('/store/aurora');
    await waitFor(() =>
      expect(container.querySelector('[data-testid="cart-count"]')?.textContent).toBe('2 items'),
    );
    const link = container.querySelector('.cart-summary-link');
    expect(link?.getAttribute('href')).toBe('/store/aurora/cart');
    expect(link?.textContent).toContain('View cart');
  });
});

describe('added-to-cart toast', () => {
  it('says what was really added when the limit capped it', () => {
    expect(addedToCartToast('Mug', 2, 2, 5)).toEqual({
      title: 'Added to cart',
      description: '2 × Mug',
    });
    expect(addedToCartToast('Mug', 4, 1, 5)).toEqual({
      title: 'Added to cart',
      description: 'Only 1 × Mug added: your cart now has 5, the most you can order.',
    });
    expect(addedToCartToast('Mug', 1, 0, 5)).toEqual({
      title: 'Cart limit reached',
      description: 'Your cart already has 5 × Mug, the most you can order.',
    });
  });
});

describe('product images', () => {
  it('falls back to a placeholder when the image fails to load', async () => {
    const withImage = { ...mug, imageUrl: 'https://img.example/mug.png' };
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/stores/aurora') return Response.json({ ...store, ...storePatch });
      if (url === '/api/products/prod-1/reviews') return Response.json(reviews);
      if (url.startsWith('/api/stores/store-1/products')) return Response.json([withImage]);
      if (url === '/api/products/prod-1') return Response.json(withImage);
      return Response.json({ error: { message: 'Not found' } }, { status: 404 });
    });
    const { container } = await render('/store/aurora/product/prod-1');
    const image = await waitFor(() => {
      const found = container.querySelector('.product-image img');
      if (!found) throw new Error('no image yet');
      return found;
    });
    expect(image.getAttribute('alt')).toBe('Ceramic Mug');
    await act(async () => {
      image.dispatchEvent(new Event('error'));
    });
    const fallback = container.querySelector('.product-image[data-testid="image-fallback"]');
    expect(fallback?.getAttribute('aria-label')).toBe('Ceramic Mug: image unavailable');
    expect(container.querySelector('.product-image img')).toBeNull();
  });
});
