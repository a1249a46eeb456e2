// The dashboard's 30-day figures name and compute money as the payouts page does (MONEY_FIGURES):
// paid, orders paid, received (the forwarded share), refunded, net to your wallet (received minus
// refunded) and fees, every amount in USDC and none in dollars.
import type { DailyVolumeSeries } from '@store/shared/analytics';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../../test-dom.ts';
import { VolumeCharts, volumeFigures } from './volume-charts.tsx';

const day = (d: string, extra: Partial<DailyVolumeSeries['days'][number]> = {}) => ({
  day: d,
  orders: 0,
  payments: 0,
  grossUsdc: '0.000000',
  merchantNetUsdc: '0.000000',
  feesUsdc: '0.000000',
  refundedUsdc: '0.000000',
  ...extra,
});

// Two orders of 12.96 paid and forwarded (98% each), 2.00 refunded from the payout wallet.
const SERIES: DailyVolumeSeries = {
  from: '2026-11-27',
  to: '2026-11-28',
  days: [
    day('2026-11-27', { refundedUsdc: '3.000000' }),
    day('2026-11-28', {
      orders: 2,
      payments: 2,
      grossUsdc: '25.920000',
      merchantNetUsdc: '25.401600',
      feesUsdc: '0.518400',
    }),
  ],
  totals: {
    orders: 2,
    payments: 2,
    grossUsdc: '25.920000',
    merchantNetUsdc: '25.401600',
    feesUsdc: '0.518400',
    refundedUsdc: '3.000000',
  },
};

describe('volumeFigures', () => {
  it("uses the payouts page's labels: net to your wallet is received minus refunded", () => {
    const figures = Object.fromEntries(volumeFigures(SERIES.totals).map((f) => [f.label, f.value]));
    expect(figures).toEqual({
      Paid: '25.92 USDC',
      'Orders paid': '2',
      Received: '25.4016 USDC',
      Refunded: '3.00 USDC',
      'Net to your wallet': '22.4016 USDC',
      'Fees (2%)': '0.5184 USDC',
    });
  });

  it('shows a day that refunded more than it received as a negative net', () => {
    const net = volumeFigures(SERIES.days[0] ?? day('x')).find(
      (f) => f.label === 'Net to your wallet',
    );
    expect(net?.value).toBe('-3.00 USDC');
  });
});

describe('VolumeCharts', () => {
  it('shows the refunds and the net to the wallet, in USDC, never in dollars', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(SERIES)),
    );
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    await act(async () => root.render(<VolumeCharts source={{ all: true }} />));
    const figure = (label: string) =>
      container.querySelector(`[data-testid="volume-${label}"]`)?.textContent;
    await waitFor(() => expect(figure('Refunded')).toBe('3.00 USDC'));
    expect(figure('Net to your wallet')).toBe('22.4016 USDC');
    expect(figure('Received')).toBe('25.4016 USDC');
    expect(figure('Paid')).toBe('25.92 USDC');
    expect(figure('Net to you')).toBeUndefined();
    const headers = [...container.querySelectorAll('.volume-table th[scope="col"]')].map(
      (th) => th.textContent,
    );
    expect(headers).toContain('Refunded');
    expect(headers).toContain('Net to your wallet');
    expect(container.textContent).not.toContain('$');
    await act(async () => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
  });
});
