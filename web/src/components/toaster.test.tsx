import { TOAST } from '@store/shared';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, leavePage, toast, toastError } from '../lib/toast.ts';
import { Toaster } from './toaster.tsx';

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  vi.useFakeTimers();
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  act(() => root.render(<Toaster />));
});

afterEach(() => {
  act(() => dismissToast());
  act(() => root.unmount());
  container.remove();
  vi.useRealTimers();
});

const shown = () => [...container.querySelectorAll('.toast-title')].map((node) => node.textContent);

function pointer(type: string, clientX: number) {
  const event = new MouseEvent(type, { bubbles: true, clientX });
  return event;
}

describe('toasts (docs/screens.md#notifications)', () => {
  it('shows one toast at a time: a new one replaces the current', () => {
    act(() => void toast({ title: 'Added to cart' }));
    act(() => void toastError('Failed to create order', '422: Only 2 left'));
    expect(shown()).toEqual(['Failed to create order']);
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('422: Only 2 left');
  });

  it('a toast about a page goes when the page changes; others stay', () => {
    act(() => void toast({ title: 'Added to cart', page: '/store/s/product/p' }));
    act(() => leavePage('/store/s/product/p'));
    expect(shown()).toEqual(['Added to cart']);
    act(() => leavePage('/store/s/checkout'));
    expect(shown()).toEqual([]);
    act(() => void toast({ title: 'Order created successfully' }));
    act(() => leavePage('/store/s/payment/o'));
    expect(shown()).toEqual(['Order created successfully']);
  });

  it('hides a toast after 5000 ms', () => {
    act(() => void toast({ title: 'Cart cleared' }));
    act(() => vi.advanceTimersByTime(TOAST.durationMs - 1));
    expect(shown()).toEqual(['Cart cleared']);
    act(() => vi.advanceTimersByTime(1));
    expect(shown()).toEqual([]);
  });

  it('dismisses on a swipe right of 50 px, not less', () => {
    act(() => void toast({ title: 'Added to cart' }));
    const item = () => container.querySelector('.toast') as HTMLElement;
    // Note: jsdom has no PointerEvent; React listens to the pointer event names.
    act(() => {
      item().dispatchEvent(Object.assign(pointer('pointerdown', 100)));
      item().dispatchEvent(pointer('pointermove', 140));
      item().dispatchEvent(pointer('pointerup', 140));
    });
    expect(shown()).toEqual(['Added to cart']);
    act(() => {
      item().dispatchEvent(pointer('pointerdown', 100));
      item().dispatchEvent(pointer('pointermove', 150));
      item().dispatchEvent(pointer('pointerup', 150));
    });
    expect(shown()).toEqual([]);
  });

  it('F8 moves focus to the notification region', () => {
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8' }));
    });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Notifications (F8)');
  });
});
