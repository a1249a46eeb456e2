// Tiny DOM helpers for unit tests (no testing library is installed): typing that React notices,
// clicks inside act(), and polling until an assertion holds.
import { act } from 'react';

/** Sets an input's or select's value the way a user would, so React's onChange fires. */
export async function typeInto(element: Element | null, value: string): Promise<void> {
  if (
    !(
      element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement
    )
  ) {
    throw new Error('typeInto needs an input, select or textarea');
  }
  const prototype = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  await act(async () => {
    setter?.call(element, value);
    element.dispatchEvent(
      new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
    );
  });
}

/** Clicks an element inside act(). */
export async function click(element: Element | null): Promise<void> {
  if (!(element instanceof HTMLElement)) throw new Error('click needs an element');
  await act(async () => {
    element.click();
  });
}

/** The first element whose text content is exactly `text`. */
export function byText(root: ParentNode, text: string, selector = '*'): HTMLElement | undefined {
  return [...root.querySelectorAll<HTMLElement>(selector)].find(
    (element) => element.textContent?.trim() === text,
  );
}

/** The input, select or textarea labelled `label`. */
export function byLabel(root: ParentNode, label: string): HTMLElement | undefined {
  const element = [...root.querySelectorAll('label')].find((l) => l.textContent?.trim() === label);
  const id = element?.getAttribute('for');
  return id ? (document.getElementById(id) ?? undefined) : undefined;
}

/** Retries `check` until it stops throwing (or `timeoutMs` passes), letting React settle between. */
export async function waitFor<T>(check: () => T, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return check();
    } catch (error) {
      lastError = error;
    }
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
  throw lastError;
}
