// The store and product dialogs in jsdom: the slug follows the name until the merchant types one,
// every form message, the upload hints, inventory parsing, the toasts, Esc and focus.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toaster.tsx';
import { db } from '../../db/db.ts';
import { dismissToast } from '../../lib/toast.ts';
import { byLabel, byText, click, typeInto, waitFor } from '../../test-dom.ts';
import { setSender } from '../outbox/sync.ts';
import { TestServer } from '../outbox/test-server.ts';
import { ProductFormDialog } from './product-form-dialog.tsx';
import { StoreFormDialog } from './store-form-dialog.tsx';

let container: HTMLDivElement;
let root: Root;
let server: TestServer;
const onDone = vi.fn();

beforeEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
  server = new TestServer();
  setSender(server.send);
  onDone.mockReset();
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
});

afterEach(() => {
  act(() => dismissToast());
  act(() => root.unmount());
  container.remove();
  setSender(undefined);
});

function render(dialog: React.ReactNode) {
  act(() =>
    root.render(
      <>
        {dialog}
        <Toaster />
      </>,
    ),
  );
}

const field = (label: string) => byLabel(document.body, label) as HTMLInputElement;
const text = () => document.body.textContent ?? '';
const submit = (name: string) => click(byText(document.body, name, 'button') ?? null);

describe('Create New Store', () => {
  beforeEach(() => render(<StoreFormDialog open userId="u1" onDone={onDone} />));

  it('is a labelled dialog with focus on the first field, closed by Esc', async () => {
    const dialog = document.querySelector('[role="dialog"]');
    expect(dialog?.getAttribute('aria-modal')).toBe('true');
    expect(
      document.getElementById(dialog?.getAttribute('aria-labelledby') ?? '')?.textContent,
    ).toBe('Create New Store');
    expect(document.activeElement).toBe(field('Store Name'));
    expect(text()).toContain('PNG, JPG or SVG, max 2MB');
    await act(async () => {
      dialog?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(onDone).toHaveBeenCalled();
  });

  it('generates the slug from the name until the merchant edits the slug', async () => {
    await typeInto(field('Store Name'), '  My Cool -- Store! ');
    expect(field('Store Slug').value).toBe('my-cool-store');
    await typeInto(field('Store Slug'), 'custom');
    await typeInto(field('Store Name'), 'Another Name');
    expect(field('Store Slug').value).toBe('custom');
  });

  it('shows every store form message', async () => {
    await typeInto(field('Store Slug'), 'Bad Slug');
    await typeInto(field('Payment Address'), '0x123');
    await typeInto(field('Primary color'), 'red');
    await submit('Create Store');
    await waitFor(() =>
      expect(text()).toContain('Slug can only contain lowercase letters, numbers, and hyphens'),
    );
    expect(text()).toContain('Store name is required');
    expect(text()).toContain(
      'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
    );
    expect(text()).toContain('Must be a valid hex color');
    await typeInto(field('Store Slug'), '');
    await waitFor(() => expect(text()).toContain('Store slug is required'));
    expect(onDone).not.toHaveBeenCalled();
  });

  it('creates the store, toasts, and closes', async () => {
    await typeInto(field('Store Name'), 'Moon Shop');
    await submit('Create Store');
    await waitFor(() => expect(text()).toContain('Store created successfully'));
    expect(text()).toContain('Your new store is ready for products!');
    expect(onDone).toHaveBeenCalled();
    expect([...server.stores.values()][0]).toMatchObject({
      name: 'Moon Shop',
      slug: 'moon-shop',
      theme: 'dark',
      primaryColor: '#6366f1',
    });
    expect(await db.adminStores.count()).toBe(1);
  });

  it('keeps the dialog open with the failure toast when the server refuses', async () => {
    server.seed('store', { name: 'Taken', slug: 'moon-shop' });
    await typeInto(field('Store Name'), 'Moon Shop');
    await submit('Create Store');
    await waitFor(() => expect(text()).toContain('Failed to create store'));
    expect(text()).toContain('That store slug is already taken; choose another');
    expect(onDone).not.toHaveBeenCalled();
  });
});

describe('Add New Product', () => {
  let storeId: string;
  beforeEach(() => {
    storeId = server.seed('store', { name: 'Moon Shop', slug: 'moon-shop' }).id;
    render(
      <ProductFormDialog
        open
        userId="u1"
        storeId={storeId}
        storeName="Moon Shop"
        onDone={onDone}
      />,
    );
  });

  it('shows the product form messages and the image hint', async () => {
    expect(text()).toContain('PNG, JPG or WebP, max 5MB');
    await submit('Add Product');
    await waitFor(() => expect(text()).toContain('Price is required'));
    expect(text()).toContain('Title is required');
    await typeInto(field('Price (USDC)'), '0');
    await waitFor(() => expect(text()).toContain('Price must be a positive number'));
    await typeInto(field('Price (USDC)'), 'abc');
    await waitFor(() => expect(text()).toContain('Price must be a positive number'));
  });

  it('parses the inventory (non-numeric is 0) and toasts on success', async () => {
    await typeInto(field('Title'), 'Moon Mug');
    await typeInto(field('Price (USDC)'), '12.5');
    await typeInto(field('Inventory'), 'lots');
    await submit('Add Product');
    await waitFor(() => expect(text()).toContain('Product added successfully'));
    expect([...server.products.values()][0]).toMatchObject({
      title: 'Moon Mug',
      priceUsdc: '12.5',
      inventory: 0,
      storeId,
      isPublished: true,
    });
    expect(onDone).toHaveBeenCalled();
  });
});
