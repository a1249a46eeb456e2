import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProductImage } from './product-image.tsx';
import { StoreLogo } from './store-logo.tsx';

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const render = (node: ReactNode) => act(() => root.render(node));
const fail = (image: Element | null) =>
  act(() => {
    image?.dispatchEvent(new Event('error'));
  });

describe('ProductImage', () => {
  it('shows a drawn placeholder when the product has no image', () => {
    render(<ProductImage src={null} alt="Mug" />);
    const placeholder = container.querySelector('[data-testid="image-placeholder"]');
    expect(placeholder?.getAttribute('role')).toBe('img');
    expect(placeholder?.getAttribute('aria-label')).toBe('Mug: no image');
    expect(placeholder?.querySelector('svg')).not.toBeNull();
    expect(container.querySelector('img')).toBeNull();
  });

  it('replaces an image that fails to load, and tries a new URL again', () => {
    render(<ProductImage src="https://img.example/a.png" alt="" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://img.example/a.png');
    fail(container.querySelector('img'));
    const fallback = container.querySelector('[data-testid="image-fallback"]');
    expect(fallback?.getAttribute('aria-hidden')).toBe('true');
    expect(container.querySelector('img')).toBeNull();
    render(<ProductImage src="https://img.example/b.png" alt="" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://img.example/b.png');
  });
});

describe('StoreLogo', () => {
  it("falls back to the name's first letter when the logo image fails", () => {
    render(<StoreLogo name="aurora Goods" logoUrl="https://img.example/logo.png" />);
    expect(container.querySelector('img')?.getAttribute('alt')).toBe('aurora Goods logo');
    fail(container.querySelector('img'));
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('A');
  });
});
