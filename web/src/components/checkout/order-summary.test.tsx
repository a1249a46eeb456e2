// The summary's tax line says what the stored tax says (its label and amount), never a rate of its
// own: no tax, no line.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderSummary } from './order-summary.tsx';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function render(element: React.ReactElement): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  act(() => root.render(element));
  unmount = () => {
    act(() => root.unmount());
    host.remove();
  };
  return host;
}

const lines = [{ key: 'mug', title: 'Mug', quantity: 1, lineTotalUsdc: '10.00' }];

describe('the order summary', () => {
  it('labels the tax line with the label of the stored tax', () => {
    const host = render(
      <OrderSummary
        lines={lines}
        subtotalUsdc="10.00"
        tax={{ amountUsdc: '1.90', label: 'Tax included (19%)' }}
        totalUsdc="10.00"
      />,
    );
    const terms = [...host.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms).toContain('Tax included (19%)');
    expect(host.textContent).toContain('1.90');
    expect(host.textContent).not.toContain('8%');
  });

  it('shows no tax line and no rate when there is no tax', () => {
    const host = render(<OrderSummary lines={lines} subtotalUsdc="10.00" totalUsdc="10.00" />);
    expect(host.textContent).not.toMatch(/tax/i);
    expect(host.textContent).not.toContain('%');
  });
});
