// The last 30 days of a store (or of all the merchant's stores): figures from the analytics views
// (paid, orders paid, received, refunded, net to your wallet, fees: MONEY_FIGURES, the payouts
// page's labels and meanings) above two bar charts, USDC paid and orders paid per UTC day. Hand-made SVG sized to its container (readable on a phone: fewer labels, no scaled-down
// text), described for screen readers, with the numbers as a table beneath.
import { parseUsdc } from '@store/shared';
import {
  type DailyVolumePoint,
  type DailyVolumeSeries,
  DailyVolumeSeriesSchema,
  MONEY_FIGURES,
  netToWallet,
} from '@store/shared/analytics';
import { useEffect, useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { labelledDays, niceScale, shortDay, shortNumber } from '../../../admin/charts/scale.ts';
import { exactUsdcText } from '../../../admin/usdc-text.ts';
import { apiGet, errorText } from '../../../lib/api.ts';
import { useOffline } from '../../../lib/connectivity.ts';
import './volume-charts.css';

/** Whose days: one store, or every store of the signed-in merchant. */
export type VolumeSource = { storeId: string } | { all: true };

const DAYS = 30;

function seriesPath(source: VolumeSource): string {
  return 'storeId' in source
    ? `/api/stores/${encodeURIComponent(source.storeId)}/analytics/daily?days=${DAYS}`
    : `/api/analytics/daily?days=${DAYS}`;
}

/** USDC for people, exact as on the payouts page ("1,234.5608 USDC"): the token, never dollars. */
const amount = exactUsdcText;

type Sums = Pick<
  DailyVolumePoint,
  'orders' | 'grossUsdc' | 'merchantNetUsdc' | 'refundedUsdc' | 'feesUsdc'
>;

/** Net to the payout wallet of a day or of the range: received minus refunded. */
const netOf = (sums: Sums) =>
  netToWallet(parseUsdc(sums.merchantNetUsdc), parseUsdc(sums.refundedUsdc));

/** The figures of a day or of the range, in MONEY_FIGURES' order, labels and meanings. */
export function volumeFigures(sums: Sums) {
  const f = MONEY_FIGURES;
  return [
    { ...f.paid, value: amount(sums.grossUsdc) },
    { ...f.ordersPaid, value: String(sums.orders) },
    { ...f.received, value: amount(sums.merchantNetUsdc) },
    { ...f.refunded, value: amount(sums.refundedUsdc) },
    { ...f.net, value: amount(netOf(sums)) },
    { ...f.fees, value: amount(sums.feesUsdc) },
  ];
}

/** The figures and the two charts. */
export function VolumeCharts(props: { source: VolumeSource; title?: string }) {
  const [series, setSeries] = useState<DailyVolumeSeries>();
  const [failed, setFailed] = useState<string>();
  const path = seriesPath(props.source);
  const id = useId();

  // Note: read again when the connection comes back, so a failure while offline does not stay.
  const offline = useOffline();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `offline` turning false reloads.
  useEffect(() => {
    if (offline && series) return;
    const controller = new AbortController();
    setFailed(undefined);
    apiGet<unknown>([path], { signal: controller.signal })
      .then((body) => setSeries(v.parse(DailyVolumeSeriesSchema, body)))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFailed(errorText(error));
      });
    return () => controller.abort();
  }, [path, offline]);

  return (
    <section className="card volume-charts" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{props.title ?? 'Last 30 days'}</h2>
      {failed && !series ? (
        <p className="muted">Charts unavailable: {failed}</p>
      ) : !series ? (
        <p className="loading" role="status">
          Loading charts...
        </p>
      ) : (
        <>
          <dl className="volume-figures">
            {volumeFigures(series.totals).map((figure) => (
              <Figure key={figure.label} {...figure} />
            ))}
          </dl>
          <div className="volume-chart-grid">
            <BarChart
              title="USDC paid per day"
              unit="USDC"
              points={series.days}
              value={(p) => Number(p.grossUsdc)}
              text={(p) => amount(p.grossUsdc)}
              tone="revenue"
            />
            <BarChart
              title="Orders paid per day"
              unit="orders"
              points={series.days}
              value={(p) => p.orders}
              text={(p) => String(p.orders)}
              tone="orders"
            />
          </div>
          <details className="volume-table">
            <summary>Show the numbers as a table</summary>
            {/* Note: focusable, so a keyboard can scroll the wide table on a phone. */}
            <section
              className="table-scroll"
              aria-label="Per-day figures"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
              tabIndex={0}
            >
              <table>
                <caption className="visually-hidden">
                  Per UTC day, {series.from} to {series.to}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    {volumeFigures(series.totals).map((figure) => (
                      <th key={figure.label} scope="col">
                        {figure.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {series.days.map((p) => (
                    <tr key={p.day}>
                      <th scope="row">{p.day}</th>
                      {volumeFigures(p).map((figure) => (
                        <td key={figure.label}>{figure.value}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </details>
        </>
      )}
    </section>
  );
}

function Figure(props: { label: string; note: string; value: string }) {
  return (
    <div className="volume-figure">
      <dt className="muted small">{props.label}</dt>
      <dd data-testid={`volume-${props.label}`}>{props.value}</dd>
      <dd className="muted small volume-note">{props.note}</dd>
    </div>
  );
}

/** Width of an element, following its resizes (`fallback` until measured). */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.floor(element.clientWidth)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

const HEIGHT = 180;
const MARGIN = { top: 10, right: 8, bottom: 24, left: 44 };

/** One series as bars, its grid and labels; described for screen readers. */
function BarChart(props: {
  title: string;
  unit: string;
  points: readonly DailyVolumePoint[];
  value: (point: DailyVolumePoint) => number;
  text: (point: DailyVolumePoint) => string;
  tone: 'revenue' | 'orders';
}) {
  const id = useId();
  const { ref, width } = useWidth(320);
  const values = props.points.map(props.value);
  const scale = niceScale(Math.max(0, ...values));
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const band = plotWidth / Math.max(props.points.length, 1);
  const barWidth = Math.max(2, band * 0.7);
  const y = (value: number) => MARGIN.top + plotHeight - (value / scale.max) * plotHeight;
  const labels = new Set(labelledDays(props.points.length, plotWidth));
  const best = values.reduce((top, value, i) => (value > (values[top] ?? 0) ? i : top), 0);
  const first = props.points[0];
  const last = props.points.at(-1);
  const activeDays = values.filter((value) => value > 0).length;
  const description =
    first && last
      ? `${props.points.length} days from ${first.day} to ${last.day}; ${activeDays} with ${props.unit}.` +
        (activeDays > 0 && props.points[best]
          ? ` Highest: ${props.text(props.points[best])} on ${props.points[best].day}.`
          : '')
      : 'No days.';
  return (
    <figure className="volume-chart" ref={ref}>
      <figcaption className="small" aria-hidden="true">
        {props.title}
      </figcaption>
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        className={`volume-svg volume-${props.tone}`}
        data-testid={`chart-${props.tone}`}
      >
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {/* Note: role="img" makes the drawing one image to assistive technology. */}
        <g>
          {scale.ticks.map((tick) => (
            <g key={tick}>
              <line
                className="volume-grid"
                x1={MARGIN.left}
                x2={width - MARGIN.right}
                y1={y(tick)}
                y2={y(tick)}
              />
              <text className="volume-axis" x={MARGIN.left - 6} y={y(tick)} dy="0.32em">
                {shortNumber(tick)}
              </text>
            </g>
          ))}
          {props.points.map((point, i) => {
            const value = values[i] ?? 0;
            const top = y(value);
            const x = MARGIN.left + i * band + (band - barWidth) / 2;
            return (
              <g key={point.day}>
                <rect
                  className="volume-bar"
                  data-day={point.day}
                  data-value={value}
                  x={x}
                  y={value > 0 ? Math.min(top, y(0) - 1) : y(0)}
                  width={barWidth}
                  height={value > 0 ? Math.max(1, y(0) - top) : 0}
                  rx={Math.min(3, barWidth / 3)}
                >
                  <title>{`${point.day}: ${props.text(point)}`}</title>
                </rect>
                {labels.has(i) && (
                  <text className="volume-axis volume-day" x={x + barWidth / 2} y={HEIGHT - 6}>
                    {shortDay(point.day)}
                  </text>
                )}
              </g>
            );
          })}
        </g>
      </svg>
    </figure>
  );
}
